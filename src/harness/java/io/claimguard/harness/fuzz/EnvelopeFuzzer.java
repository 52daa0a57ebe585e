package io.claimguard.harness.fuzz;

import io.claimguard.domain.EffectiveResult;
import io.claimguard.domain.Envelope;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.EnvelopeRejectedException;
import io.claimguard.domain.Limits;
import io.claimguard.domain.Verdict;
import io.claimguard.domain.Verification;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * Runs the domain core over mutated envelopes and checks, with an oracle of its own, that it never throws
 * anything but a rejection and never lets PASS through where a guard rule must fire.
 *
 * <p>{@code ./mvnw -q -Pfuzz test-compile exec:exec -Dfuzz.args="--cases 1000000 --seed 1"}
 */
public final class EnvelopeFuzzer {

    private static final Set<String> LABELS = Set.of("direct_observation", "reasonable_inference", "overstated",
            "unsupported", "external_unknown", "contradicted");
    private static final int MAX_FINDINGS_KEPT = 20;

    private final EnvelopeReader reader = new EnvelopeReader(Limits.DEFAULTS);
    private final EnvelopeMutator mutator;

    EnvelopeFuzzer(EnvelopeMutator mutator) {
        this.mutator = mutator;
    }

    /** What one run found. */
    record Report(long cases, long accepted, Map<String, Long> rejectedByReason, long passVerdicts, List<String> findings,
            long nanos) {

        String summary() {
            return String.format("%,d cases in %.1f s (%,.0f/s): %,d accepted (%,d effective PASS), rejected %s; %d finding(s)%s",
                    cases, nanos / 1e9, cases / (nanos / 1e9), accepted, passVerdicts, rejectedByReason, findings.size(),
                    findings.isEmpty() ? "" : "\n  " + String.join("\n  ", findings));
        }
    }

    Report run(long cases, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        long accepted = 0;
        long passes = 0;
        Map<String, Long> rejected = new TreeMap<>();
        List<String> findings = new ArrayList<>();
        long started = System.nanoTime();
        for (long i = 0; i < cases; i++) {
            byte[] input = mutator.mutate(random);
            try {
                Envelope envelope = reader.read(input);
                Verification verification = Verification.of(envelope);
                EffectiveResult.toJson(verification, i);
                accepted++;
                if (verification.guard().effectiveVerdict() == Verdict.PASS) {
                    passes++;
                }
                String violation = violation(envelope, verification);
                if (violation != null) {
                    keep(findings, "case " + i + " (seed " + seed + "): " + violation);
                }
            } catch (EnvelopeRejectedException rejection) {
                rejected.merge(rejection.reason().code(), 1L, Long::sum);
            } catch (RuntimeException | StackOverflowError unexpected) {
                keep(findings, "case " + i + " (seed " + seed + "): " + unexpected.getClass().getName() + ": "
                        + unexpected.getMessage());
            }
        }
        return new Report(cases, accepted, rejected, passes, findings, System.nanoTime() - started);
    }

    /** The oracle: decided from the raw tree, independently of the guard's own code. */
    static String violation(Envelope envelope, Verification verification) {
        JsonNode root = envelope.root();
        JsonNode input = root.path("verifier_input");
        JsonNode output = root.path("verifier_output");
        List<String> mustFire = new ArrayList<>();
        if (!asciiEquals(input.path("gatekeeper_result").path("status"), "pass")) {
            mustFire.add("gatekeeper not pass");
        }
        if (!asciiEquals(input.path("executor_output_parse_status").path("status"), "ok")) {
            mustFire.add("parse status not ok");
        }
        JsonNode verdict = output.path("verdict");
        boolean verdictValid = asciiEquals(verdict, "pass") || asciiEquals(verdict, "low_confid") || asciiEquals(verdict, "reject");
        if (!verdictValid) {
            mustFire.add("verdict invalid");
        }
        JsonNode claimChecks = output.path("claim_checks");
        if (claimChecks.isArray()) {
            for (JsonNode check : claimChecks) {
                JsonNode label = check.path("verification");
                if (!label.isString() || !LABELS.contains(label.stringValue())) {
                    mustFire.add("unknown label");
                    break;
                }
            }
            if (!verification.projection().factsChecked().isArray()
                    || verification.projection().factsChecked().size() != claimChecks.size()) {
                return "projection does not hold one fact per claim check";
            }
        }
        Verdict effective = verification.guard().effectiveVerdict();
        if (!mustFire.isEmpty() && effective == Verdict.PASS) {
            return "effective PASS although " + mustFire;
        }
        if (verification.guard().modelVerdict().map(model -> model.isStricterThan(effective)).orElse(false)) {
            return "effective " + effective + " is less strict than the model's " + verification.guard().modelVerdict().get();
        }
        if (!verdictValid && !verification.guard().downgraded()) {
            return "an invalid verdict was not counted as downgraded";
        }
        return null;
    }

    private static boolean asciiEquals(JsonNode node, String lowerCaseExpected) {
        if (node == null || !node.isString()) {
            return false;
        }
        String value = node.stringValue();
        if (value.length() != lowerCaseExpected.length()) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            char lower = c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
            if (lower != lowerCaseExpected.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static void keep(List<String> findings, String finding) {
        if (findings.size() < MAX_FINDINGS_KEPT) {
            findings.add(finding);
        }
    }

    public static void main(String[] args) {
        long cases = 1_000_000;
        long seed = 1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--cases" -> cases = Long.parseLong(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "; use --cases N --seed S");
            }
        }
        Report report = new EnvelopeFuzzer(EnvelopeMutator.fromExamples(Path.of("examples"))).run(cases, seed);
        System.out.println(report.summary());
        System.exit(report.findings().isEmpty() ? 0 : 1);
    }
}
