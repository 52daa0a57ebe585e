package io.claimguard.harness.bench;

import io.claimguard.testkit.ExampleEnvelopes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The benchmark's workload: distinct, valid, realistic envelopes made from the examples in {@code examples/}, so
 * that every shape the service meets is in the mix in equal shares (V2 {@code claim_checks}, both lists, legacy
 * only, neither, and each guard case). Each envelope has its own request_id, 0 to 8 claim checks (the example's
 * checks cloned or trimmed; legacy and plain envelopes have none) and is padded to about 4 KB of compact JSON
 * with a longer final answer and rationale, as real verifier traffic carries.
 *
 * <p>Envelope {@code i} of a stream depends only on the seed, the stream and {@code i}, not on what was
 * generated before: a 100,000-message backlog is produced as it is sent, never held in memory at once.
 */
final class BenchEnvelopes {

    static final int MAX_CLAIM_CHECKS = 8;
    /** Padding targets are drawn from this range, so that the mean is about 4 KB and sizes still differ. */
    private static final int MIN_TARGET_BYTES = 3_584;
    private static final int MAX_TARGET_BYTES = 4_608;
    private static final String FILLER = "The verifier re-read the cited tool traces and compared each figure with "
            + "the executor's wording; units, time zones and service names agree with the evidence as recorded. ";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** One generated envelope. {@code shape} is the name of the example it was made from. */
    record BenchEnvelope(String requestId, String shape, int claimChecks, byte[] bytes) {
    }

    private record Example(String name, ObjectNode envelope) {
    }

    private final List<Example> examples;
    private final long seed;

    private BenchEnvelopes(List<Example> examples, long seed) {
        this.examples = examples;
        this.seed = seed;
    }

    static BenchEnvelopes load(Path examplesDir, long seed) {
        return new BenchEnvelopes(ExampleEnvelopes.load(examplesDir).stream()
                .map(example -> new Example(example.name(), (ObjectNode) JSON.readTree(example.json())))
                .toList(), seed);
    }

    /**
     * Envelope {@code index} of {@code stream} (e.g. {@code jms}, {@code files}, {@code lat-jms}); streams keep the
     * request ids of different phases apart.
     */
    BenchEnvelope envelope(String stream, int index) {
        SplittableRandom random = new SplittableRandom(seed ^ (stream.hashCode() * 0x9E3779B97F4A7C15L)
                ^ (index * 0xBF58476D1CE4E5B9L));
        Example example = examples.get(random.nextInt(examples.size()));
        ObjectNode envelope = example.envelope().deepCopy();
        String requestId = String.format(Locale.ROOT, "bench-%s-%s-%07d", stream, Long.toHexString(seed & 0xFFFFFF), index);
        envelope.put("request_id", requestId);
        ObjectNode output = (ObjectNode) envelope.get("verifier_output");
        int claimChecks = varyClaimChecks(output, random);
        byte[] bytes = pad(envelope, random.nextInt(MIN_TARGET_BYTES, MAX_TARGET_BYTES + 1));
        return new BenchEnvelope(requestId, example.name(), claimChecks, bytes);
    }

    /** Envelopes {@code 0 .. count-1} of a stream, for the phases that need them all up front. */
    List<BenchEnvelope> envelopes(String stream, int count) {
        List<BenchEnvelope> envelopes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            envelopes.add(envelope(stream, i));
        }
        return envelopes;
    }

    /**
     * Clones or trims the example's claim checks to 0..8, each clone with its own claim_id. An example without a
     * non-empty {@code claim_checks} list (legacy, none, a failed parse) keeps what it has: none.
     */
    private static int varyClaimChecks(ObjectNode output, SplittableRandom random) {
        JsonNode checks = output.get("claim_checks");
        if (checks == null || !checks.isArray() || checks.isEmpty()) {
            return 0;
        }
        int count = random.nextInt(MAX_CLAIM_CHECKS + 1);
        ArrayNode varied = output.putArray("claim_checks");
        for (int i = 0; i < count; i++) {
            ObjectNode check = (ObjectNode) checks.get(i % checks.size()).deepCopy();
            if (i >= checks.size()) {
                check.put("claim_id", "claim-" + (i + 1));
                check.put("claim_text", check.path("claim_text").asString("") + " (restated as claim " + (i + 1) + ")");
            }
            varied.add(check);
        }
        return count;
    }

    /** Lengthens the final answer and the rationale (half each) until the compact JSON is {@code target} bytes. */
    private static byte[] pad(ObjectNode envelope, int target) {
        byte[] bytes = JSON.writeValueAsBytes(envelope);
        int missing = target - bytes.length;
        if (missing <= 0) {
            return bytes;
        }
        ObjectNode output = (ObjectNode) envelope.get("verifier_output");
        JsonNode input = envelope.get("verifier_input");
        int toAnswer = input instanceof ObjectNode inputObject && inputObject.path("executor_final_answer").isString()
                ? missing / 2 : 0;
        if (toAnswer > 0) {
            ObjectNode inputObject = (ObjectNode) input;
            inputObject.put("executor_final_answer", inputObject.get("executor_final_answer").stringValue() + " "
                    + filler(toAnswer - 1));
        }
        int toRationale = missing - toAnswer;
        String rationale = output.path("rationale").isString() ? output.get("rationale").stringValue() : "";
        output.put("rationale", rationale + " " + filler(toRationale - 1));
        return JSON.writeValueAsBytes(envelope);
    }

    /** Plain ASCII that needs no escaping in JSON, so that {@code length} characters add exactly that many bytes. */
    private static String filler(int length) {
        StringBuilder text = new StringBuilder(Math.max(0, length));
        while (text.length() < length) {
            text.append(FILLER, 0, Math.min(FILLER.length(), length - text.length()));
        }
        return text.toString();
    }

    /** What the workload looks like: mean size, claim-check counts, shapes. */
    static final class Mix {

        private long envelopes;
        private long bytes;
        private int minBytes = Integer.MAX_VALUE;
        private int maxBytes;
        private long claimChecks;
        private final Map<Integer, Long> byClaimChecks = new TreeMap<>();
        private final Map<String, Long> byShape = new TreeMap<>();

        static Mix of(List<BenchEnvelope> envelopes) {
            Mix mix = new Mix();
            envelopes.forEach(mix::add);
            return mix;
        }

        void add(BenchEnvelope envelope) {
            envelopes++;
            bytes += envelope.bytes().length;
            minBytes = Math.min(minBytes, envelope.bytes().length);
            maxBytes = Math.max(maxBytes, envelope.bytes().length);
            claimChecks += envelope.claimChecks();
            byClaimChecks.merge(envelope.claimChecks(), 1L, Long::sum);
            byShape.merge(envelope.shape(), 1L, Long::sum);
        }

        long claimChecks() {
            return claimChecks;
        }

        Summary summary() {
            return new Summary(envelopes, envelopes == 0 ? 0 : (double) bytes / envelopes, minBytes, maxBytes,
                    envelopes == 0 ? 0 : (double) claimChecks / envelopes,
                    Collections.unmodifiableMap(new TreeMap<>(byClaimChecks)), Collections.unmodifiableMap(new TreeMap<>(byShape)));
        }
    }

    /** The mix as reported; {@code byClaimChecks} maps a claim-check count to how many envelopes have it. */
    record Summary(long envelopes, double meanBytes, int minBytes, int maxBytes, double meanClaimChecks,
            Map<Integer, Long> byClaimChecks, Map<String, Long> byShape) {

        String describe() {
            StringBuilder claims = new StringBuilder();
            byClaimChecks.forEach((checks, count) -> claims.append(claims.isEmpty() ? "" : ", ")
                    .append(checks).append(": ").append(String.format(Locale.ROOT, "%.0f%%", 100.0 * count / envelopes)));
            StringBuilder shapes = new StringBuilder();
            byShape.forEach((shape, count) -> shapes.append(shapes.isEmpty() ? "" : ", ")
                    .append(shape).append(' ').append(String.format(Locale.ROOT, "%.0f%%", 100.0 * count / envelopes)));
            return String.format(Locale.ROOT, "%,d envelopes, mean %,.0f bytes (%,d to %,d), mean %.1f claim checks "
                    + "(by count: %s); shapes: %s", envelopes, meanBytes, minBytes, maxBytes, meanClaimChecks, claims, shapes);
        }
    }
}
