package io.claimguard.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import java.util.List;

/**
 * ClaimGuard's architecture, written down once: which package may use which. Every rule takes the root package, so
 * that the same rules that guard {@code io.claimguard} can be shown to catch a broken fixture.
 */
final class Architecture {

    private Architecture() {
    }

    /**
     * The packages and what each may use. {@code support} holds generic mechanisms that know nothing of the product
     * (the group commit, failure streaks, SQLSTATE classification, back-off, log escaping), so that no package uses
     * another only to reach one of them. {@code domain} is plain Java: the rules of the contract. {@code pipeline}
     * is the vocabulary the routes share (endpoints, the received input, its outcome). The steps
     * ({@code audit}, {@code deadletter}, {@code forward}) and the {@code verify} route use it; the intakes feed
     * {@code verify}; the intakes, {@code verify} and {@code deadletter} read their settings from {@code config}. The {@code status} facts are read by the command line ({@code cli}) and by the actuator endpoint
     * ({@code observe}), which also hands each input to OpenTelemetry ({@code telemetry}). {@code cli} takes the input key ({@code audit.Sha256}) from {@code audit}, so that {@code send}
     * finds an input's row by the service's own definition. {@code merkle} is plain Java like {@code domain}: the RFC
     * 6962 tree, which uses nothing of the service. {@code checkpoint} (signed checkpoints and receipts over the seals)
     * builds the tree over {@code seal}'s hashes; the command line and the status facts read it. The audit
     * {@code explorer} (read-only pages and the web login) reads the tables itself, as the runtime login {@code config}
     * chose at start, takes only a row's seal check from {@code seal}, and from {@code domain} the guard reason and
     * finding codes its filters offer. {@code signing} signs every effective result
     * (the {@code sign} step of the pipeline) with {@code checkpoint}'s Ed25519 keys, and the command line checks results
     * with it. Who may log in to the broker and what each role may do there is {@code broker}, which uses nothing of
     * the service: {@code config} secures the embedded broker with it, and the command line's tools log in by role with
     * it. Retention ({@code archive}) writes old partitions to archive files with {@code seal}'s content and a
     * {@code checkpoint}, and reads them back for the command line. Replay ({@code replay}) re-judges stored audits
     * under another policy with {@code domain}'s rules and records the run; the command line only parses and prints. The application class at the root wires it all
     * and is not a layer.
     */
    static ArchRule layers(String root) {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .withOptionalLayers(true)
                .layer("support").definedBy(root + ".support..")
                .layer("domain").definedBy(root + ".domain..")
                .layer("config").definedBy(root + ".config..")
                .layer("pipeline").definedBy(root + ".pipeline..")
                .layer("telemetry").definedBy(root + ".telemetry..")
                .layer("observe").definedBy(root + ".observe..")
                .layer("audit").definedBy(root + ".audit..")
                .layer("deadletter").definedBy(root + ".deadletter..")
                .layer("forward").definedBy(root + ".forward..")
                .layer("verify").definedBy(root + ".verify..")
                .layer("intake").definedBy(root + ".intake..")
                .layer("seal").definedBy(root + ".seal..")
                .layer("rollup").definedBy(root + ".rollup..")
                .layer("status").definedBy(root + ".status..")
                .layer("cli").definedBy(root + ".cli..")
                .layer("merkle").definedBy(root + ".merkle..")
                .layer("checkpoint").definedBy(root + ".checkpoint..")
                .layer("explorer").definedBy(root + ".explorer..")
                .layer("signing").definedBy(root + ".signing..")
                .layer("broker").definedBy(root + ".broker..")
                .layer("archive").definedBy(root + ".archive..")
                .layer("replay").definedBy(root + ".replay..")
                .whereLayer("support").mayNotAccessAnyLayer()
                .whereLayer("domain").mayNotAccessAnyLayer()
                .whereLayer("broker").mayNotAccessAnyLayer()
                .whereLayer("config").mayOnlyAccessLayers("broker", "domain")
                .whereLayer("pipeline").mayOnlyAccessLayers("support", "domain")
                .whereLayer("telemetry").mayOnlyAccessLayers("pipeline", "config", "domain")
                .whereLayer("observe").mayOnlyAccessLayers("telemetry", "status", "pipeline", "support", "config", "domain")
                .whereLayer("audit").mayOnlyAccessLayers("pipeline", "support", "config", "domain")
                .whereLayer("deadletter").mayOnlyAccessLayers("audit", "observe", "pipeline", "support", "config", "domain")
                .whereLayer("forward").mayOnlyAccessLayers("pipeline", "support", "domain")
                .whereLayer("verify").mayOnlyAccessLayers("observe", "pipeline", "support", "config", "domain")
                .whereLayer("intake").mayOnlyAccessLayers("observe", "pipeline", "support", "config", "domain")
                .whereLayer("seal").mayOnlyAccessLayers("support", "config")
                .whereLayer("rollup").mayOnlyAccessLayers("seal", "support")
                .whereLayer("status").mayOnlyAccessLayers("checkpoint", "seal", "config", "domain")
                .whereLayer("cli").mayOnlyAccessLayers("archive", "replay", "status", "checkpoint", "merkle", "seal", "audit",
                        "signing", "pipeline", "support", "broker", "config", "domain")
                .whereLayer("archive").mayOnlyAccessLayers("checkpoint", "merkle", "seal")
                .whereLayer("replay").mayOnlyAccessLayers("audit", "domain")
                .whereLayer("merkle").mayNotAccessAnyLayer()
                .whereLayer("checkpoint").mayOnlyAccessLayers("seal", "merkle", "support", "config")
                .whereLayer("explorer").mayOnlyAccessLayers("seal", "support", "config", "domain")
                .whereLayer("signing").mayOnlyAccessLayers("checkpoint", "pipeline", "domain");
    }

    /** No package uses one that uses it back, however long the way round. */
    static ArchRule noCycles(String root) {
        return slices().matching(root + ".(*)..").should().beFreeOfCycles();
    }

    /** The domain core knows nothing of Camel, Spring, the broker or JDBC: it is the contract's rules in plain Java. */
    static ArchRule plainDomain(String root) {
        return plainJava(root + ".domain..", "the domain core is plain Java, tested without a framework");
    }

    /** Nor does the Merkle tree: RFC 6962 in plain Java, that a verifier can take without the service. */
    static ArchRule plainMerkle(String root) {
        return plainJava(root + ".merkle..", "the Merkle tree is plain Java, tested without a framework");
    }

    private static ArchRule plainJava(String packages, String because) {
        return ArchRuleDefinition.noClasses().that().resideInAPackage(packages)
                .should().dependOnClassesThat().resideInAnyPackage(
                        "org.apache.camel..", "org.springframework..", "jakarta..", "org.apache.activemq..", "java.sql..",
                        "javax.sql..", "io.micrometer..")
                .because(because);
    }

    static List<ArchRule> all(String root) {
        return List.of(layers(root), noCycles(root), plainDomain(root), plainMerkle(root));
    }
}
