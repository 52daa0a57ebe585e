package io.claimguard.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Proves the property scenarios of the specs over generated envelopes. Each generated envelope carries what the
 * contract predicts for it, worked out from how it was generated, not by the code under test.
 *
 * <p>The envelope properties run without jqwik's mixed-in edge cases: the generators name their odd values
 * themselves, and the mixed-in combinations made a third of all envelopes share one empty parse status, leaving
 * too few clean envelopes to show that PASS survives where it should.
 */
class GeneratedEnvelopePropertyTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final EnvelopeReader READER = EnvelopeJson.READER;

    // Without UNICODE_CASE, CASE_INSENSITIVE folds ASCII letters only: the contract's rule, stated independently.
    private static final Pattern VALID_VERDICT = Pattern.compile("PASS|LOW_CONFID|REJECT", Pattern.CASE_INSENSITIVE);
    private static final Pattern STATUS_PASS = Pattern.compile("pass", Pattern.CASE_INSENSITIVE);
    private static final Pattern STATUS_FAIL = Pattern.compile("fail", Pattern.CASE_INSENSITIVE);
    private static final Pattern STATUS_OK = Pattern.compile("ok", Pattern.CASE_INSENSITIVE);

    private static final List<String> KNOWN_LABELS = List.of(
            "direct_observation", "reasonable_inference", "overstated", "unsupported", "external_unknown", "contradicted");
    private static final Map<Verdict, Integer> STRICTNESS = Map.of(Verdict.PASS, 0, Verdict.LOW_CONFID, 1, Verdict.REJECT, 2);

    @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
    @Label("Scenario: Effective verdict is never less strict than the model's")
    void effectiveVerdictIsNeverLessStrictThanTheModels(@ForAll("envelopes") GeneratedEnvelope generated) {
        GuardDecision decision = generated.verify().guard();

        assertThat(decision.modelVerdict()).isEqualTo(generated.modelVerdict());
        generated.modelVerdict().ifPresent(model ->
                assertThat(STRICTNESS.get(decision.effectiveVerdict())).isGreaterThanOrEqualTo(STRICTNESS.get(model)));
    }

    @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
    @Label("Scenario: Effective verdict is never PASS when a rule fires")
    void effectiveVerdictIsNeverPassWhenARuleFires(@ForAll("envelopes") GeneratedEnvelope generated) {
        boolean gatekeeperFailedOrMissing = !generated.gatekeeper().passed();
        boolean parseStatusNotOk = !generated.parseStatus().ok();
        boolean verdictInvalid = generated.modelVerdict().isEmpty();
        boolean labelUnknown = generated.claimChecks().claims().stream().anyMatch(claim -> !claim.knownLabel());

        Verdict effective = generated.verify().guard().effectiveVerdict();

        if (gatekeeperFailedOrMissing || parseStatusNotOk || verdictInvalid || labelUnknown) {
            assertThat(effective).isNotEqualTo(Verdict.PASS);
        }
    }

    @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
    @Label("Scenario: Effective verdict is the strictest of the model's verdict and every cap")
    void effectiveVerdictIsTheStrictestOfTheModelsVerdictAndEveryCap(@ForAll("envelopes") GeneratedEnvelope generated) {
        Set<GuardRule> expected = generated.expectedRules();
        Verdict strictest = generated.modelVerdict().orElse(Verdict.PASS);
        for (GuardRule rule : expected) {
            if (STRICTNESS.get(rule.cap()) > STRICTNESS.get(strictest)) {
                strictest = rule.cap();
            }
        }

        GuardDecision decision = generated.verify().guard();

        assertThat(decision.reasons()).extracting(GuardReason::rule).containsExactlyElementsOf(expected);
        assertThat(decision.effectiveVerdict()).isEqualTo(strictest);
    }

    @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
    @Label("Scenario: Downgraded exactly when stricter than the model's verdict")
    void downgradedExactlyWhenStricterThanTheModelsVerdict(@ForAll("envelopes") GeneratedEnvelope generated) {
        GuardDecision decision = generated.verify().guard();

        boolean stricter = generated.modelVerdict()
                .map(model -> STRICTNESS.get(decision.effectiveVerdict()) > STRICTNESS.get(model))
                .orElse(true);
        assertThat(decision.downgraded()).isEqualTo(stricter);
    }

    @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
    @Label("Scenario: Every claim check yields exactly one fact, in order")
    void everyClaimCheckYieldsExactlyOneFactInOrder(@ForAll("envelopes") GeneratedEnvelope generated) {
        Projection projection = generated.verify().projection();
        GeneratedClaimChecks claimChecks = generated.claimChecks();

        if (claimChecks.isArray()) {
            assertThat(projection.mode())
                    .isEqualTo(generated.factsEmitted() ? ProjectionMode.CLAIM_CHECKS_REPLACED : ProjectionMode.CLAIM_CHECKS);
            assertThat(projection.factsChecked().values()).extracting(fact -> fact.path("fact").stringValue())
                    .containsExactlyElementsOf(claimChecks.claims().stream().map(GeneratedClaim::expectedFact).toList());
            assertThat(projection.claims()).extracting(ProjectedClaim::ordinal)
                    .containsExactlyElementsOf(IntStream.range(0, claimChecks.claims().size()).boxed().toList());
        } else {
            assertThat(projection.mode()).isEqualTo(generated.factsEmitted() ? ProjectionMode.LEGACY : ProjectionMode.NONE);
            assertThat(projection.claims()).isEmpty();
        }
    }

    @Property(tries = 1000)
    @Label("Scenario: Arbitrary bytes are accepted or rejected")
    void arbitraryBytesAreAcceptedOrRejected(@ForAll("arbitraryInputs") byte[] input) {
        assertAcceptedOrRejected(input);
    }

    @Property(tries = 1000)
    @Label("Scenario: Mutated envelopes are accepted or rejected")
    void mutatedEnvelopesAreAcceptedOrRejected(
            @ForAll("envelopes") GeneratedEnvelope generated, @ForAll("mutations") List<Mutation> mutations) {
        byte[] input = generated.bytes();
        for (Mutation mutation : mutations) {
            input = mutation.applyTo(input);
        }
        assertAcceptedOrRejected(input);
    }

    /** Any exception but a rejection escapes and fails the property. */
    private static void assertAcceptedOrRejected(byte[] input) {
        try {
            Envelope envelope = READER.read(input);
            Verification verification = Verification.of(envelope);
            assertThat(envelope.requestId()).matches(EnvelopeReader.REQUEST_ID_RULE);
            assertThat(EffectiveResult.toJson(verification, 1L)).startsWith("{\"audit_id\":1,");
        } catch (EnvelopeRejectedException rejection) {
            assertThat(rejection.reason()).isNotNull();
            assertThat(rejection.getMessage()).isNotBlank();
        }
    }

    // ---- generated envelopes ----

    /** An envelope field as generated: empty when the field is left out. */
    record Field(Optional<JsonNode> json) {

        static Field absent() {
            return new Field(Optional.empty());
        }

        static Field of(JsonNode json) {
            return new Field(Optional.of(json));
        }

        void putInto(ObjectNode parent, String name) {
            json.ifPresent(value -> parent.set(name, value));
        }

        boolean emitted() {
            return json.filter(value -> !value.isNull()).isPresent();
        }

        Optional<String> string() {
            return json.filter(JsonNode::isString).map(JsonNode::stringValue);
        }
    }

    record GeneratedGatekeeper(Field result) {

        Optional<String> status() {
            return result.json().filter(JsonNode::isObject).map(json -> json.get("status"))
                    .filter(JsonNode::isString).map(JsonNode::stringValue);
        }

        boolean passed() {
            return status().filter(status -> STATUS_PASS.matcher(status).matches()).isPresent();
        }

        Set<GuardRule> expectedRules() {
            if (passed()) {
                return EnumSet.noneOf(GuardRule.class);
            }
            if (status().filter(status -> STATUS_FAIL.matcher(status).matches()).isEmpty()) {
                return EnumSet.of(GuardRule.GATEKEEPER_MISSING);
            }
            JsonNode failures = result.json().orElseThrow().path("failures");
            List<JsonNode> listed = failures.isArray() ? List.copyOf(failures.values()) : List.of();
            Set<GuardRule> rules = EnumSet.noneOf(GuardRule.class);
            if (listed.stream().anyMatch(GeneratedGatekeeper::isInvocationRef)) {
                rules.add(GuardRule.GATEKEEPER_INVOCATION_REF);
            }
            if (listed.isEmpty() || listed.stream().anyMatch(failure -> !isInvocationRef(failure))) {
                rules.add(GuardRule.GATEKEEPER_FAIL);
            }
            return rules;
        }

        private static boolean isInvocationRef(JsonNode failure) {
            JsonNode check = failure.path("check");
            return check.isString() && check.stringValue().equals("evidence.invocation_ref");
        }
    }

    record GeneratedParseStatus(Field parseStatus) {

        boolean ok() {
            return parseStatus.json().filter(JsonNode::isObject).map(json -> json.path("status"))
                    .filter(status -> status.isString() && STATUS_OK.matcher(status.stringValue()).matches())
                    .isPresent();
        }
    }

    record GeneratedClaim(Optional<String> claimId, String claimText, Optional<String> claimType, Field verification) {

        String expectedFact() {
            return claimId.orElse("") + ": " + claimText;
        }

        boolean knownLabel() {
            return verification.string().filter(KNOWN_LABELS::contains).isPresent();
        }

        JsonNode toJson() {
            ObjectNode check = NODES.objectNode();
            claimId.ifPresent(id -> check.put("claim_id", id));
            check.put("claim_text", claimText);
            claimType.ifPresent(type -> check.put("claim_type", type));
            verification.putInto(check, "verification");
            check.put("detail", "generated");
            return check;
        }
    }

    /** Either a list of claim checks, or a value that is not one (absent, null, an object). */
    record GeneratedClaimChecks(Field notAList, List<GeneratedClaim> claims, boolean isArray) {

        static GeneratedClaimChecks list(List<GeneratedClaim> claims) {
            return new GeneratedClaimChecks(Field.absent(), claims, true);
        }

        static GeneratedClaimChecks notAList(Field value) {
            return new GeneratedClaimChecks(value, List.of(), false);
        }

        void putInto(ObjectNode output) {
            if (isArray) {
                ArrayNode checks = output.putArray("claim_checks");
                claims.forEach(claim -> checks.add(claim.toJson()));
            } else {
                notAList.putInto(output, "claim_checks");
            }
        }
    }

    record GeneratedEnvelope(String requestId, Field verdict, GeneratedGatekeeper gatekeeper, GeneratedParseStatus parseStatus,
            GeneratedClaimChecks claimChecks, Field factsChecked) {

        Optional<Verdict> modelVerdict() {
            return verdict.string()
                    .filter(text -> VALID_VERDICT.matcher(text).matches())
                    .map(text -> Verdict.valueOf(text.toUpperCase(Locale.ROOT)));
        }

        boolean factsEmitted() {
            return factsChecked.emitted();
        }

        Set<GuardRule> expectedRules() {
            Set<GuardRule> rules = EnumSet.noneOf(GuardRule.class);
            rules.addAll(gatekeeper.expectedRules());
            if (!parseStatus.ok()) {
                rules.add(GuardRule.PARSE_STATUS_NOT_OK);
            }
            if (modelVerdict().isEmpty()) {
                rules.add(GuardRule.VERDICT_INVALID);
            }
            if (claimChecks.claims().stream().anyMatch(claim -> !claim.knownLabel())) {
                rules.add(GuardRule.CLAIM_CHECKS_UNKNOWN_VERIFICATION);
            }
            return rules;
        }

        byte[] bytes() {
            ObjectNode root = NODES.objectNode();
            root.put("request_id", requestId);
            ObjectNode input = root.putObject("verifier_input");
            input.put("original_query", "why is checkout slow?");
            gatekeeper.result().putInto(input, "gatekeeper_result");
            parseStatus.parseStatus().putInto(input, "executor_output_parse_status");
            ObjectNode output = root.putObject("verifier_output");
            verdict.putInto(output, "verdict");
            output.put("groundedness_score", 0.5);
            claimChecks.putInto(output);
            factsChecked.putInto(output, "facts_checked");
            return root.toString().getBytes(StandardCharsets.UTF_8);
        }

        Verification verify() {
            return Verification.of(EnvelopeJson.read(bytes()));
        }
    }

    // ---- arbitraries ----

    @Provide
    Arbitrary<GeneratedEnvelope> envelopes() {
        return Combinators.combine(requestIds(), verdicts(), gatekeepers(), parseStatuses(), claimChecks(), factsChecked())
                .as(GeneratedEnvelope::new);
    }

    private static Arbitrary<String> requestIds() {
        return Arbitraries.strings().withCharRange('a', 'z').withCharRange('A', 'Z').withCharRange('0', '9').withChars("._:-")
                .ofMinLength(1).ofMaxLength(128);
    }

    private static Arbitrary<Field> verdicts() {
        Arbitrary<String> validInRandomCase = Arbitraries.of(Verdict.class).flatMap(verdict -> inRandomCase(verdict.name()));
        Arbitrary<String> nearMisses = Arbitraries.of("pa\u017Fs", " PASS", "PASS\n", "LOW_CONFIDENCE", "LOW-CONFID", "", "APPROVED");
        Arbitrary<Field> strings = Arbitraries.frequencyOf(Tuple.of(16, validInRandomCase), Tuple.of(1, nearMisses), Tuple.of(1, text(12)))
                .map(value -> Field.of(NODES.stringNode(value)));
        return Arbitraries.frequencyOf(Tuple.of(16, strings), Tuple.of(1, nonStrings("PASS")), Tuple.of(1, Arbitraries.just(Field.absent())));
    }

    private static Arbitrary<GeneratedGatekeeper> gatekeepers() {
        Arbitrary<JsonNode> status = Arbitraries.frequencyOf(
                Tuple.of(12, inRandomCase("pass").map(NODES::stringNode)),
                Tuple.of(6, inRandomCase("fail").map(NODES::stringNode)),
                Tuple.of(1, Arbitraries.of("skipped", "passed", "", " fail", "fa\u0131l").map(NODES::stringNode)),
                Tuple.of(1, text(6).map(NODES::stringNode)),
                Tuple.of(1, Arbitraries.of(NODES.nullNode(), NODES.booleanNode(true), NODES.numberNode(0))));
        Arbitrary<Field> failures = Arbitraries.frequencyOf(
                Tuple.of(6, failure().list().ofMaxSize(4).map(list -> Field.of(NODES.arrayNode().addAll(list)))),
                Tuple.of(1, Arbitraries.just(Field.absent())),
                Tuple.of(1, nonStrings("evidence.invocation_ref")));
        Arbitrary<Field> gatekeeperObject = Combinators.combine(status.optional(0.95), failures).as((statusValue, failuresValue) -> {
            ObjectNode result = NODES.objectNode();
            statusValue.ifPresent(value -> result.set("status", value));
            failuresValue.putInto(result, "failures");
            return Field.of(result);
        });
        return Arbitraries.frequencyOf(
                Tuple.of(16, gatekeeperObject),
                Tuple.of(1, Arbitraries.just(Field.absent())),
                Tuple.of(1, nonStrings("pass"))).map(GeneratedGatekeeper::new);
    }

    private static Arbitrary<JsonNode> failure() {
        Arbitrary<JsonNode> check = Arbitraries.oneOf(
                Arbitraries.just("evidence.invocation_ref").map(NODES::stringNode),
                Arbitraries.of("Evidence.Invocation_Ref", "evidence.invocation_ref ", "evidence.trace_ref", "claims.schema")
                        .map(NODES::stringNode),
                Arbitraries.just(NODES.numberNode(7)));
        Arbitrary<JsonNode> failureObject = Combinators.combine(check.optional(0.9), text(20)).as((checkValue, detail) -> {
            ObjectNode failure = NODES.objectNode();
            checkValue.ifPresent(value -> failure.set("check", value));
            failure.put("detail", detail);
            return failure;
        });
        return Arbitraries.frequencyOf(Tuple.of(9, failureObject), Tuple.of(1, Arbitraries.just(NODES.stringNode("evidence.invocation_ref"))));
    }

    private static Arbitrary<GeneratedParseStatus> parseStatuses() {
        Arbitrary<JsonNode> status = Arbitraries.frequencyOf(
                Tuple.of(20, inRandomCase("ok").map(NODES::stringNode)),
                Tuple.of(2, Arbitraries.of("malformed", "missing", "", " ok", "okay").map(NODES::stringNode)),
                Tuple.of(1, text(6).map(NODES::stringNode)),
                Tuple.of(1, Arbitraries.of(NODES.nullNode(), NODES.booleanNode(true))));
        Arbitrary<Field> parseStatusObject = Combinators.combine(status.optional(0.95), text(20).optional()).as((statusValue, error) -> {
            ObjectNode parseStatus = NODES.objectNode();
            statusValue.ifPresent(value -> parseStatus.set("status", value));
            error.ifPresent(value -> parseStatus.put("error", value));
            return Field.of(parseStatus);
        });
        return Arbitraries.frequencyOf(
                Tuple.of(16, parseStatusObject),
                Tuple.of(1, Arbitraries.just(Field.absent())),
                Tuple.of(1, nonStrings("ok"))).map(GeneratedParseStatus::new);
    }

    private static Arbitrary<GeneratedClaimChecks> claimChecks() {
        Arbitrary<GeneratedClaimChecks> lists = claim().list().ofMaxSize(6).map(GeneratedClaimChecks::list);
        Arbitrary<GeneratedClaimChecks> notLists = Arbitraries.of(
                Field.absent(), Field.of(NODES.nullNode()), Field.of(NODES.objectNode().put("claim-1", "direct_observation")))
                .map(GeneratedClaimChecks::notAList);
        return Arbitraries.frequencyOf(Tuple.of(4, lists), Tuple.of(1, notLists));
    }

    private static Arbitrary<GeneratedClaim> claim() {
        Arbitrary<Field> verification = Arbitraries.frequencyOf(
                Tuple.of(30, Arbitraries.of(KNOWN_LABELS).map(label -> Field.of(NODES.stringNode(label)))),
                Tuple.of(1, Arbitraries.of(KNOWN_LABELS).map(label -> Field.of(NODES.stringNode(label.toUpperCase(Locale.ROOT))))),
                Tuple.of(1, Arbitraries.oneOf(Arbitraries.of("partially_supported", "direct_observation "), text(10))
                        .map(label -> Field.of(NODES.stringNode(label)))),
                Tuple.of(1, Arbitraries.of(Field.absent(), Field.of(NODES.numberNode(1)), Field.of(NODES.nullNode()))));
        Arbitrary<String> claimType = Arbitraries.of("root_cause", "symptom", "impact", "risk", "observation", "ROOT_CAUSE");
        return Combinators.combine(
                Arbitraries.integers().between(1, 99).map(n -> "claim-" + n).optional(0.9),
                text(40),
                claimType.optional(0.9),
                verification).as(GeneratedClaim::new);
    }

    private static Arbitrary<Field> factsChecked() {
        Arbitrary<Field> legacyList = text(30).list().ofMaxSize(2).map(facts -> {
            ArrayNode list = NODES.arrayNode();
            facts.forEach(fact -> list.addObject().put("fact", fact).put("is_critical", true).put("verification", "direct_evidence"));
            return Field.of(list);
        });
        return Arbitraries.frequencyOf(
                Tuple.of(2, legacyList),
                Tuple.of(2, Arbitraries.just(Field.absent())),
                Tuple.of(1, Arbitraries.just(Field.of(NODES.nullNode()))));
    }

    /** Values of the wrong type for a field that should hold {@code wouldBeString}, or an object. */
    private static Arbitrary<Field> nonStrings(String wouldBeString) {
        return Arbitraries.of(
                Field.of(NODES.nullNode()),
                Field.of(NODES.numberNode(1)),
                Field.of(NODES.booleanNode(true)),
                Field.of(NODES.arrayNode().add(wouldBeString)),
                Field.of(NODES.objectNode().put("value", wouldBeString)));
    }

    private static Arbitrary<String> inRandomCase(String word) {
        return Arbitraries.integers().between(0, (1 << word.length()) - 1).map(upperCaseMask -> {
            StringBuilder text = new StringBuilder(word.length());
            for (int i = 0; i < word.length(); i++) {
                char letter = word.charAt(i);
                text.append((upperCaseMask & (1 << i)) != 0 ? Character.toUpperCase(letter) : Character.toLowerCase(letter));
            }
            return text.toString();
        });
    }

    /** Text with characters that need JSON escaping and characters beyond ASCII; no lone surrogates, which UTF-8 cannot carry. */
    private static Arbitrary<String> text(int maxLength) {
        return Arbitraries.strings()
                .withCharRange(' ', '~')
                .withCharRange('\u00a0', '\u024f')
                .withChars("\"\\\n\t\u0000\u2028€漢字")
                .ofMaxLength(maxLength);
    }

    // ---- arbitrary bytes ----

    @Provide
    Arbitrary<byte[]> arbitraryInputs() {
        Arbitrary<byte[]> randomBytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(512);
        Arbitrary<byte[]> jsonLikeText = Arbitraries.strings()
                .withChars("{}[]\":,.-+0123456789eEtrufalsn \n\\u\uFEFFé")
                .withChars("request_idverifier_output")
                .ofMaxLength(200)
                .map(text -> text.getBytes(StandardCharsets.UTF_8));
        return Arbitraries.frequencyOf(Tuple.of(1, randomBytes), Tuple.of(1, jsonLikeText));
    }

    enum MutationKind { FLIP, INSERT, DELETE, TRUNCATE }

    /** One change to an input's bytes; {@code position} is a fraction of the length, so it fits any input. */
    record Mutation(MutationKind kind, double position, byte value) {

        byte[] applyTo(byte[] input) {
            int at = (int) (position * input.length);
            return switch (kind) {
                case FLIP -> {
                    byte[] flipped = input.clone();
                    if (at < flipped.length) {
                        // xor with 0 would change nothing
                        flipped[at] ^= value == 0 ? 1 : value;
                    }
                    yield flipped;
                }
                case INSERT -> {
                    byte[] longer = new byte[input.length + 1];
                    System.arraycopy(input, 0, longer, 0, at);
                    longer[at] = value;
                    System.arraycopy(input, at, longer, at + 1, input.length - at);
                    yield longer;
                }
                case DELETE -> {
                    if (at >= input.length) {
                        yield input;
                    }
                    byte[] shorter = new byte[input.length - 1];
                    System.arraycopy(input, 0, shorter, 0, at);
                    System.arraycopy(input, at + 1, shorter, at, input.length - at - 1);
                    yield shorter;
                }
                case TRUNCATE -> Arrays.copyOf(input, at);
            };
        }
    }

    @Provide
    Arbitrary<List<Mutation>> mutations() {
        return Combinators.combine(
                Arbitraries.of(MutationKind.class),
                Arbitraries.doubles().between(0, 1).filter(position -> position < 1),
                Arbitraries.bytes()).as(Mutation::new).list().ofMinSize(1).ofMaxSize(4);
    }
}
