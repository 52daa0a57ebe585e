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
     * The packages and what each may use. {@code domain} is plain Java: the rules of the contract. {@code pipeline}
     * is the vocabulary the routes share (endpoints, the received input, its outcome, failure kinds). The steps
     * ({@code audit}, {@code deadletter}, {@code forward}) and the {@code verify} route use it; the intakes feed
     * {@code verify}. The {@code status} facts are read by the command line ({@code cli}) and by the actuator endpoint
     * ({@code observe}), which also hands each input to OpenTelemetry ({@code telemetry}). {@code cli} takes the input key ({@code audit.Sha256}) from {@code audit}, so that {@code send}
     * finds an input's row by the service's own definition. The audit {@code explorer} (read-only pages and the web
     * login) reads the tables itself and takes only a row's seal check from {@code seal}. The application class at the root wires it all and is not a
     * layer.
     */
    static ArchRule layers(String root) {
        return layeredArchitecture().consideringOnlyDependenciesInLayers()
                .withOptionalLayers(true)
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
                .layer("status").definedBy(root + ".status..")
                .layer("cli").definedBy(root + ".cli..")
                .layer("explorer").definedBy(root + ".explorer..")
                .whereLayer("domain").mayNotAccessAnyLayer()
                .whereLayer("config").mayOnlyAccessLayers("domain")
                .whereLayer("pipeline").mayOnlyAccessLayers("domain")
                .whereLayer("telemetry").mayOnlyAccessLayers("pipeline", "config", "domain")
                .whereLayer("observe").mayOnlyAccessLayers("telemetry", "status", "pipeline", "config", "domain")
                .whereLayer("audit").mayOnlyAccessLayers("pipeline", "config", "domain")
                .whereLayer("deadletter").mayOnlyAccessLayers("audit", "observe", "pipeline", "domain")
                .whereLayer("forward").mayOnlyAccessLayers("pipeline", "domain")
                .whereLayer("verify").mayOnlyAccessLayers("observe", "pipeline", "config", "domain")
                .whereLayer("intake").mayOnlyAccessLayers("observe", "pipeline", "config", "domain")
                .whereLayer("seal").mayOnlyAccessLayers("pipeline", "config")
                .whereLayer("status").mayOnlyAccessLayers("seal", "config", "domain")
                .whereLayer("cli").mayOnlyAccessLayers("status", "seal", "audit", "pipeline", "config", "domain")
                .whereLayer("explorer").mayOnlyAccessLayers("seal");
    }

    /** No package uses one that uses it back, however long the way round. */
    static ArchRule noCycles(String root) {
        return slices().matching(root + ".(*)..").should().beFreeOfCycles();
    }

    /** The domain core knows nothing of Camel, Spring, the broker or JDBC: it is the contract's rules in plain Java. */
    static ArchRule plainDomain(String root) {
        return ArchRuleDefinition.noClasses().that().resideInAPackage(root + ".domain..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "org.apache.camel..", "org.springframework..", "jakarta..", "org.apache.activemq..", "java.sql..",
                        "javax.sql..", "io.micrometer..")
                .because("the domain core is plain Java, tested without a framework");
    }

    static List<ArchRule> all(String root) {
        return List.of(layers(root), noCycles(root), plainDomain(root));
    }
}
