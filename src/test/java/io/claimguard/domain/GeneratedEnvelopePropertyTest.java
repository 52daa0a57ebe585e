package io.claimguard.domain;

import static io.claimguard.domain.SeededCases.Weighted.weight;
import static io.claimguard.domain.SeededCases.forAll;
import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.domain.SeededCases.Gen;
import io.claimguard.testkit.Envelopes;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Proves the property scenarios of the specs over generated envelopes. Each generated envelope carries what the
 * contract predicts for it, worked out from how it was generated, not by the code under test.
 *
 * <p>Plain JUnit Jupiter: {@link SeededCases} runs each property on {@value #TRIES} cases from a fixed base seed
 * ({@code -Dclaimguard.property.seed=N} picks another) and names the seed and the generated value in a failure.
 * The generators name their odd values themselves, with weights that leave enough clean envelopes to show that
 * PASS survives where it should; {@link #generatedEnvelopesCoverEveryRuleAndMode} keeps them honest.
 */
class GeneratedEnvelopePropertyTest {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final EnvelopeReader READER = Envelopes.READER;

    // Without UNICODE_CASE, CASE_INSENSITIVE folds ASCII letters only: the contract's rule, stated independently.
    private static final Pattern VALID_VERDICT = Pattern.compile("PASS|LOW_CONFID|REJECT", Pattern.CASE_INSENSITIVE);
    private static final Pattern STATUS_PASS = Pattern.compile("pass", Pattern.CASE_INSENSITIVE);
    private static final Pattern STATUS_FAIL = Pattern.compile("fail", Pattern.CASE_INSENSITIVE);
    private static final Pattern STATUS_OK = Pattern.compile("ok", Pattern.CASE_INSENSITIVE);

    private static final List<String> KNOWN_LABELS = List.of(
            "direct_observation", "reasonable_inference", "overstated", "unsupported", "external_unknown", "contradicted");
    private static final Map<Verdict, Integer> STRICTNESS = Map.of(Verdict.PASS, 0, Verdict.LOW_CONFID, 1, Verdict.REJECT, 2);

    static final int TRIES = 1000;

    // the envelope properties, by name: a name and the base seed give a property its cases
    private static final String NEVER_LESS_STRICT = "Effective verdict is never less strict than the model's";
    private static final String NEVER_PASS_WHEN_A_RULE_FIRES = "Effective verdict is never PASS when a rule fires";
    private static final String STRICTEST_OF_MODEL_AND_CAPS = "Effective verdict is the strictest of the model's verdict and every cap";
    private static final String DOWNGRADED_EXACTLY_WHEN_STRICTER = "Downgraded exactly when stricter than the model's verdict";
    private static final String ONE_FACT_PER_CLAIM_CHECK = "Every claim check yields exactly one fact, in order";
    private static final List<String> ENVELOPE_PROPERTIES = List.of(
            NEVER_LESS_STRICT, NEVER_PASS_WHEN_A_RULE_FIRES, STRICTEST_OF_MODEL_AND_CAPS, DOWNGRADED_EXACTLY_WHEN_STRICTER, ONE_FACT_PER_CLAIM_CHECK);

    @Test
    @DisplayName("Scenario: Effective verdict is never less strict than the model's")
    void effectiveVerdictIsNeverLessStrictThanTheModels() {
        forAllEnvelopes(NEVER_LESS_STRICT, generated -> {
            GuardDecision decision = generated.verify().guard();

            assertThat(decision.modelVerdict()).isEqualTo(generated.modelVerdict());
            generated.modelVerdict().ifPresent(model ->
                    assertThat(STRICTNESS.get(decision.effectiveVerdict())).isGreaterThanOrEqualTo(STRICTNESS.get(model)));
        });
    }

    @Test
    @DisplayName("Scenario: Effective verdict is never PASS when a rule fires")
    void effectiveVerdictIsNeverPassWhenARuleFires() {
        forAllEnvelopes(NEVER_PASS_WHEN_A_RULE_FIRES, generated -> {
            boolean gatekeeperFailedOrMissing = !generated.gatekeeper().passed();
            boolean parseStatusNotOk = !generated.parseStatus().ok();
            boolean verdictInvalid = generated.modelVerdict().isEmpty();
            boolean labelUnknown = generated.claimChecks().claims().stream().anyMatch(claim -> !claim.knownLabel());

            Verdict effective = generated.verify().guard().effectiveVerdict();

            if (gatekeeperFailedOrMissing || parseStatusNotOk || verdictInvalid || labelUnknown) {
                assertThat(effective).isNotEqualTo(Verdict.PASS);
            }
        });
    }

    @Test
    @DisplayName("Scenario: Effective verdict is the strictest of the model's verdict and every cap")
    void effectiveVerdictIsTheStrictestOfTheModelsVerdictAndEveryCap() {
        forAllEnvelopes(STRICTEST_OF_MODEL_AND_CAPS, generated -> {
            Set<GuardRule> expected = generated.expectedRules();
            Verdict strictest = generated.modelVerdict().orElse(Verdict.PASS);
            for (GuardRule rule : expected) {
                if (STRICTNESS.get(rule.cap()) > STRICTNESS.get(strictest)) {
                    strictest = rule.cap();
                }
            }

            GuardDecision decision = generated.verify().guard();

            assertThat(decision.reasons()).extracting(GuardReason::code)
                    .containsExactlyElementsOf(expected.stream().map(GuardRule::code).toList());
            assertThat(decision.effectiveVerdict()).isEqualTo(strictest);
        });
    }

    @Test
    @DisplayName("Scenario: Downgraded exactly when stricter than the model's verdict")
    void downgradedExactlyWhenStricterThanTheModelsVerdict() {
        forAllEnvelopes(DOWNGRADED_EXACTLY_WHEN_STRICTER, generated -> {
            GuardDecision decision = generated.verify().guard();

            boolean stricter = generated.modelVerdict()
                    .map(model -> STRICTNESS.get(decision.effectiveVerdict()) > STRICTNESS.get(model))
                    .orElse(true);
            assertThat(decision.downgraded()).isEqualTo(stricter);
        });
    }

    @Test
    @DisplayName("Scenario: Every claim check yields exactly one fact, in order")
    void everyClaimCheckYieldsExactlyOneFactInOrder() {
        forAllEnvelopes(ONE_FACT_PER_CLAIM_CHECK, generated -> {
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
        });
    }

    @Test
    @DisplayName("Scenario: Arbitrary bytes are accepted or rejected")
    void arbitraryBytesAreAcceptedOrRejected() {
        forAll("Arbitrary bytes are accepted or rejected", EDGE_CASE_INPUTS, TRIES, GeneratedEnvelopePropertyTest::arbitraryInput,
                GeneratedEnvelopePropertyTest::printable, GeneratedEnvelopePropertyTest::assertAcceptedOrRejected);
    }

    @Test
    @DisplayName("Scenario: Mutated envelopes are accepted or rejected")
    void mutatedEnvelopesAreAcceptedOrRejected() {
        forAll("Mutated envelopes are accepted or rejected", TRIES,
                gen -> new MutatedEnvelope(envelope(gen), mutations(gen)),
                mutated -> mutated.mutations() + " of " + mutated.generated().json() + "\nread: " + printable(mutated.bytes()),
                mutated -> assertAcceptedOrRejected(mutated.bytes()));
    }

    // Stated independently of the reader: Jackson's location part, its feature and token names, Java class names.
    private static final Pattern PARSER_INTERNALS = Pattern.compile(
            "Source:|REDACTED|StreamReadFeature|#UNKNOWN|com\\.fasterxml|tools\\.jackson|JsonToken|`"
                    + "|\\b(?:java|javax|tools|com|org)\\.[a-z]\\w*(?:\\.\\w+)*\\.[A-Z]\\w*");

    @Test
    @DisplayName("Scenario: Rejection reasons name no parser internals")
    void rejectionReasonsNameNoParserInternals() {
        Map<String, Integer> rejectedByCode = new java.util.TreeMap<>();
        forAll("Rejection reasons name no parser internals", TRIES,
                gen -> new MutatedEnvelope(envelope(gen), mutations(gen)),
                mutated -> mutated.mutations() + " of " + mutated.generated().json() + "\nread: " + printable(mutated.bytes()),
                mutated -> {
                    try {
                        READER.read(mutated.bytes());
                    } catch (EnvelopeRejectedException rejection) {
                        rejectedByCode.merge(rejection.reason().code(), 1, Integer::sum);
                        assertThat(rejection.getMessage()).doesNotContainPattern(PARSER_INTERNALS);
                        if (rejection.reason() == RejectionReason.NOT_JSON && rejection.getMessage().startsWith("input is not valid JSON")) {
                            assertThat(rejection.getMessage()).matches("input is not valid JSON: [a-z'].* \\(line \\d+, column \\d+\\)");
                        }
                    }
                });
        assertThat(rejectedByCode.getOrDefault("not_json", 0)).as("mutations rejected as not_json, of %s", rejectedByCode)
                .isGreaterThanOrEqualTo(TRIES / 4);
    }

    /**
     * Keeps the generators honest: in the cases each envelope property sees, every guard rule fires and stays
     * silent, some envelopes are clean and keep PASS, and every projection mode occurs. Counted on the generator's
     * own prediction, so that a generator that stopped producing some case fails here rather than passing quietly.
     */
    @Test
    @DisplayName("Generated envelopes cover every guard rule, clean envelopes and every projection mode")
    void generatedEnvelopesCoverEveryRuleAndMode() {
        int minimum = TRIES / 50;
        for (String property : ENVELOPE_PROPERTIES) {
            Map<GuardRule, Integer> fired = new EnumMap<>(GuardRule.class);
            Map<ProjectionMode, Integer> modes = new EnumMap<>(ProjectionMode.class);
            int clean = 0;
            int cleanModelPass = 0;
            for (GeneratedEnvelope generated : SeededCases.generate(property, TRIES, GeneratedEnvelopePropertyTest::envelope)) {
                Set<GuardRule> rules = generated.expectedRules();
                rules.forEach(rule -> fired.merge(rule, 1, Integer::sum));
                modes.merge(generated.expectedMode(), 1, Integer::sum);
                if (rules.isEmpty()) {
                    clean++;
                    if (generated.modelVerdict().equals(Optional.of(Verdict.PASS))) {
                        cleanModelPass++;
                    }
                }
            }
            String seed = " in the cases of \"" + property + "\", base seed " + SeededCases.baseSeed();
            for (GuardRule rule : GuardRule.values()) {
                assertThat(fired.getOrDefault(rule, 0)).as("envelopes firing %s%s", rule, seed).isBetween(minimum, TRIES - minimum);
            }
            for (ProjectionMode mode : ProjectionMode.values()) {
                assertThat(modes.getOrDefault(mode, 0)).as("envelopes in mode %s%s", mode, seed).isGreaterThanOrEqualTo(minimum);
            }
            assertThat(clean).as("clean envelopes%s", seed).isGreaterThanOrEqualTo(TRIES / 10);
            assertThat(cleanModelPass).as("clean envelopes the model passed%s", seed).isGreaterThanOrEqualTo(minimum);
        }
    }

    private static void forAllEnvelopes(String property, Consumer<GeneratedEnvelope> check) {
        forAll(property, TRIES, GeneratedEnvelopePropertyTest::envelope, GeneratedEnvelope::json, check);
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

        ProjectionMode expectedMode() {
            if (claimChecks.isArray()) {
                return factsEmitted() ? ProjectionMode.CLAIM_CHECKS_REPLACED : ProjectionMode.CLAIM_CHECKS;
            }
            return factsEmitted() ? ProjectionMode.LEGACY : ProjectionMode.NONE;
        }

        String json() {
            return new String(bytes(), StandardCharsets.UTF_8);
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
            return Verification.of(Envelopes.read(bytes()));
        }
    }

    // ---- generators ----

    static GeneratedEnvelope envelope(Gen gen) {
        return new GeneratedEnvelope(requestId(gen), verdict(gen), gatekeeper(gen), parseStatus(gen), claimChecks(gen), factsChecked(gen));
    }

    private static String requestId(Gen gen) {
        return gen.string(1, 128, () -> gen.charOf("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:-"));
    }

    private static Field verdict(Gen gen) {
        return gen.frequency(
                weight(16, () -> Field.of(NODES.stringNode(gen.frequency(
                        weight(16, () -> inRandomCase(gen, gen.pick(Verdict.values()).name())),
                        weight(1, () -> gen.pick("pa\u017Fs", " PASS", "PASS\n", "LOW_CONFIDENCE", "LOW-CONFID", "", "APPROVED")),
                        weight(1, () -> text(gen, 12)))))),
                weight(1, () -> nonString(gen, "PASS")),
                weight(1, Field::absent));
    }

    private static GeneratedGatekeeper gatekeeper(Gen gen) {
        Field result = gen.frequency(
                weight(16, () -> {
                    ObjectNode object = NODES.objectNode();
                    gen.optional(0.95, () -> gen.<JsonNode>frequency(
                            weight(12, () -> NODES.stringNode(inRandomCase(gen, "pass"))),
                            weight(6, () -> NODES.stringNode(inRandomCase(gen, "fail"))),
                            weight(1, () -> NODES.stringNode(gen.pick("skipped", "passed", "", " fail", "fa\u0131l"))),
                            weight(1, () -> NODES.stringNode(text(gen, 6))),
                            weight(1, () -> gen.<JsonNode>pick(NODES.nullNode(), NODES.booleanNode(true), NODES.numberNode(0)))))
                            .ifPresent(status -> object.set("status", status));
                    gen.frequency(
                            weight(6, () -> Field.of(NODES.arrayNode().addAll(gen.list(0, 4, () -> failure(gen))))),
                            weight(1, Field::absent),
                            weight(1, () -> nonString(gen, "evidence.invocation_ref")))
                            .putInto(object, "failures");
                    return Field.of(object);
                }),
                weight(1, Field::absent),
                weight(1, () -> nonString(gen, "pass")));
        return new GeneratedGatekeeper(result);
    }

    private static JsonNode failure(Gen gen) {
        return gen.frequency(
                weight(9, () -> {
                    ObjectNode failure = NODES.objectNode();
                    gen.optional(0.9, () -> gen.<JsonNode>frequency(
                            weight(1, () -> NODES.stringNode("evidence.invocation_ref")),
                            weight(1, () -> NODES.stringNode(gen.pick(
                                    "Evidence.Invocation_Ref", "evidence.invocation_ref ", "evidence.trace_ref", "claims.schema"))),
                            weight(1, () -> NODES.numberNode(7))))
                            .ifPresent(check -> failure.set("check", check));
                    failure.put("detail", text(gen, 20));
                    return failure;
                }),
                weight(1, () -> NODES.stringNode("evidence.invocation_ref")));
    }

    private static GeneratedParseStatus parseStatus(Gen gen) {
        Field parseStatus = gen.frequency(
                weight(16, () -> {
                    ObjectNode object = NODES.objectNode();
                    gen.optional(0.95, () -> gen.<JsonNode>frequency(
                            weight(20, () -> NODES.stringNode(inRandomCase(gen, "ok"))),
                            weight(2, () -> NODES.stringNode(gen.pick("malformed", "missing", "", " ok", "okay"))),
                            weight(1, () -> NODES.stringNode(text(gen, 6))),
                            weight(1, () -> gen.<JsonNode>pick(NODES.nullNode(), NODES.booleanNode(true)))))
                            .ifPresent(status -> object.set("status", status));
                    gen.optional(0.95, () -> text(gen, 20)).ifPresent(error -> object.put("error", error));
                    return Field.of(object);
                }),
                weight(1, Field::absent),
                weight(1, () -> nonString(gen, "ok")));
        return new GeneratedParseStatus(parseStatus);
    }

    private static GeneratedClaimChecks claimChecks(Gen gen) {
        return gen.frequency(
                weight(4, () -> GeneratedClaimChecks.list(gen.list(0, 6, () -> claim(gen)))),
                weight(1, () -> GeneratedClaimChecks.notAList(gen.pick(
                        Field.absent(), Field.of(NODES.nullNode()), Field.of(NODES.objectNode().put("claim-1", "direct_observation"))))));
    }

    private static GeneratedClaim claim(Gen gen) {
        Optional<String> claimId = gen.optional(0.9, () -> "claim-" + gen.between(1, 99));
        String claimText = text(gen, 40);
        Optional<String> claimType = gen.optional(0.9, () -> gen.pick("root_cause", "symptom", "impact", "risk", "observation", "ROOT_CAUSE"));
        Field verification = gen.frequency(
                weight(30, () -> Field.of(NODES.stringNode(gen.pick(KNOWN_LABELS)))),
                weight(1, () -> Field.of(NODES.stringNode(gen.pick(KNOWN_LABELS).toUpperCase(Locale.ROOT)))),
                weight(1, () -> Field.of(NODES.stringNode(gen.frequency(
                        weight(1, () -> gen.pick("partially_supported", "direct_observation ")),
                        weight(1, () -> text(gen, 10)))))),
                weight(1, () -> gen.pick(Field.absent(), Field.of(NODES.numberNode(1)), Field.of(NODES.nullNode()))));
        return new GeneratedClaim(claimId, claimText, claimType, verification);
    }

    private static Field factsChecked(Gen gen) {
        return gen.frequency(
                weight(2, () -> {
                    ArrayNode list = NODES.arrayNode();
                    gen.list(0, 2, () -> text(gen, 30)).forEach(fact ->
                            list.addObject().put("fact", fact).put("is_critical", true).put("verification", "direct_evidence"));
                    return Field.of(list);
                }),
                weight(2, Field::absent),
                weight(1, () -> Field.of(NODES.nullNode())));
    }

    /** A value of the wrong type for a field that should hold {@code wouldBeString}, or an object. */
    private static Field nonString(Gen gen, String wouldBeString) {
        return gen.pick(
                Field.of(NODES.nullNode()),
                Field.of(NODES.numberNode(1)),
                Field.of(NODES.booleanNode(true)),
                Field.of(NODES.arrayNode().add(wouldBeString)),
                Field.of(NODES.objectNode().put("value", wouldBeString)));
    }

    private static String inRandomCase(Gen gen, String word) {
        int upperCaseMask = gen.between(0, (1 << word.length()) - 1);
        StringBuilder text = new StringBuilder(word.length());
        for (int i = 0; i < word.length(); i++) {
            char letter = word.charAt(i);
            text.append((upperCaseMask & (1 << i)) != 0 ? Character.toUpperCase(letter) : Character.toLowerCase(letter));
        }
        return text.toString();
    }

    private static final String TEXT_SPECIALS = "\"\\\n\t\u0000\u2028€漢字";

    /**
     * Text with characters that need JSON escaping and characters beyond ASCII: half printable ASCII, a quarter
     * Latin letters beyond ASCII, a quarter escapes and wider characters. No lone surrogates, which UTF-8 cannot carry.
     */
    private static String text(Gen gen, int maxLength) {
        return gen.string(0, maxLength, () -> gen.frequency(
                weight(2, () -> gen.charIn(' ', '~')),
                weight(1, () -> gen.charIn('\u00a0', '\u024f')),
                weight(1, () -> gen.charOf(TEXT_SPECIALS))));
    }

    // ---- arbitrary bytes ----

    private static final String JSON_LIKE = "{}[]\":,.-+0123456789eEtrufalsn \n\\u\uFEFFérequest_idverifier_output";

    /** Inputs at the edges that a random draw would rarely hit, checked before the generated ones. */
    private static final List<byte[]> EDGE_CASE_INPUTS = List.of(
            new byte[0],
            new byte[] {0},
            new byte[] {(byte) 0x80},
            new byte[] {(byte) 0xFF},
            new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
            new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}'},
            new byte[] {(byte) 0xE2, (byte) 0x82},
            new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            utf8(" \n\t\r"),
            utf8("{"),
            utf8("{}"),
            utf8("[]"),
            utf8("null"),
            utf8("\""),
            utf8("-"),
            utf8("1e2147483648"),
            utf8("{\"request_id\":\"r\",\"verifier_output\":{}}"),
            utf8("{\"request_id\":\"r\",\"verifier_output\":{}} {}"),
            utf8("{\"request_id\":\"r\",\"verifier_output\":{\"x\":1e2147483648}}"));

    /** Random bytes, or text made of JSON's characters and the envelope's field names, half and half. */
    static byte[] arbitraryInput(Gen gen) {
        return gen.frequency(
                weight(1, () -> {
                    byte[] bytes = new byte[gen.size(0, 512)];
                    for (int i = 0; i < bytes.length; i++) {
                        bytes[i] = gen.anyByte();
                    }
                    return bytes;
                }),
                weight(1, () -> utf8(gen.string(0, 200, () -> gen.charOf(JSON_LIKE)))));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Bytes as text: printable ASCII as is, everything else as {@code \xNN}. */
    static String printable(byte[] bytes) {
        StringBuilder text = new StringBuilder(bytes.length + 16).append(bytes.length).append(" bytes: ");
        for (byte b : bytes) {
            if (b >= ' ' && b <= '~' && b != '\\') {
                text.append((char) b);
            } else {
                text.append(String.format("\\x%02X", b & 0xFF));
            }
        }
        return text.toString();
    }

    // ---- mutated envelopes ----

    record MutatedEnvelope(GeneratedEnvelope generated, List<Mutation> mutations) {

        byte[] bytes() {
            byte[] input = generated.bytes();
            for (Mutation mutation : mutations) {
                input = mutation.applyTo(input);
            }
            return input;
        }
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

    /** One to four mutations; positions and bytes favour the ends of their ranges now and then. */
    static List<Mutation> mutations(Gen gen) {
        return gen.list(1, 4, () -> new Mutation(
                gen.pick(MutationKind.values()),
                gen.frequency(weight(1, () -> 0.0), weight(1, () -> Math.nextDown(1.0)), weight(8, gen::fraction)),
                gen.frequency(weight(1, () -> gen.pick((byte) 0, (byte) -1, Byte.MAX_VALUE, Byte.MIN_VALUE)), weight(7, gen::anyByte))));
    }
}
