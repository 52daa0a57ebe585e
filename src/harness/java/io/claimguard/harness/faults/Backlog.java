package io.claimguard.harness.faults;

import io.claimguard.testkit.ExampleEnvelopes;
import io.claimguard.testkit.HarnessInput;
import io.claimguard.testkit.HarnessInput.Channel;
import io.claimguard.testkit.HarnessInput.Kind;
import io.claimguard.testkit.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The inputs of one run: realistic envelopes from {@code examples/} made distinct by their request_id, a few
 * rejected inputs of every kind, a few poison inputs, and a few byte-identical pairs that must make one audit row
 * between them. Half go by JMS, half as files, each pair one copy by JMS and one as a file; in the Kafka mode all go
 * as records on the Kafka input topic, both copies of a pair too.
 *
 * @param jms the JMS inputs, in sending order
 * @param files the file inputs, in writing order
 * @param kafka the Kafka records, in producing order
 */
record Backlog(List<HarnessInput> jms, List<HarnessInput> files, List<HarnessInput> kafka) {

    /** Shares of each channel's inputs; the rest are valid. */
    private static final double REJECTED_SHARE = 0.04;
    private static final double POISON_SHARE = 0.01;
    /** Byte-identical pairs, as a share of all inputs. */
    private static final double IDENTICAL_PAIR_SHARE = 0.005;
    /** Map, Stream and Object messages, as a share of all inputs (topology runs). */
    private static final double PROTOCOL_POISON_SHARE = 0.005;

    /**
     * Ends the request_id of every poison input; {@link #refusePoison} makes the database refuse such rows, a
     * stand-in for any value PostgreSQL refuses as data (a DBA's constraint, a trigger).
     */
    static final String POISON_SUFFIX = ".poison";

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ObjectWriter PRETTY = JSON.writerWithDefaultPrettyPrinter();

    /** The rejections the harness produces, in turn: what it sends and the reason code it must get. */
    private enum Rejection {
        NOT_JSON("not_json"),
        NOT_UTF8("not_utf8"),
        REQUEST_ID_INVALID("request_id.invalid"),
        VERIFIER_OUTPUT_MISSING("verifier_output.missing");

        final String code;

        Rejection(String code) {
            this.code = code;
        }
    }

    List<HarnessInput> all() {
        List<HarnessInput> all = new ArrayList<>(jms);
        all.addAll(files);
        all.addAll(kafka);
        return all;
    }

    long count(Kind kind) {
        return all().stream().filter(input -> input.kind() == kind).count();
    }

    /** The second copies of the byte-identical pairs: every other input's bytes are its own. */
    long identicalPairs() {
        List<HarnessInput> all = all();
        return all.size() - all.stream().map(HarnessInput::sha256).distinct().count();
    }

    /** Slice {@code index} of {@code count} equal slices of each channel's inputs, in their order. */
    Backlog slice(int index, int count) {
        return new Backlog(slice(jms, index, count), slice(files, index, count), slice(kafka, index, count));
    }

    private static List<HarnessInput> slice(List<HarnessInput> inputs, int index, int count) {
        return inputs.subList(inputs.size() * index / count, inputs.size() * (index + 1) / count);
    }

    /** Makes the database refuse poison inputs' rows (SQLSTATE 23514); once the schema exists. */
    static void refusePoison(Connection sql) throws SQLException {
        TestDatabase.refuseRequestIdsLike(sql, "%" + POISON_SUFFIX);
    }

    /**
     * @param protocolPoison whether some JMS inputs are Map, Stream and Object messages or undecodable text messages
     *     (wrapping an envelope) instead of text or bytes: protocol-level poison ClaimGuard must dead-letter at the
     *     first delivery
     */
    static Backlog generate(int inputs, String runId, Random random, Path examplesDir, boolean protocolPoison) {
        Generator generator = new Generator(runId, random, readExamples(examplesDir));
        List<HarnessInput> jms = generator.channel(Channel.JMS, inputs / 2);
        if (protocolPoison) {
            jms = withProtocolPoison(jms, Math.max(4, (int) Math.round(inputs * PROTOCOL_POISON_SHARE)), random);
        }
        List<HarnessInput> files = withIdenticalPairs(jms, generator.channel(Channel.FILE, inputs - inputs / 2),
                pairsFor(inputs), random);
        return new Backlog(List.copyOf(jms), List.copyOf(files), List.of());
    }

    /**
     * Every input a Kafka record: made in two halves as the other modes make their two channels (each pair one copy
     * in each half), then shuffled, so that the two copies of a pair come at random distances, some in one batch.
     */
    static Backlog generateKafka(int inputs, String runId, Random random, Path examplesDir) {
        Generator generator = new Generator(runId, random, readExamples(examplesDir));
        List<HarnessInput> first = generator.channel(Channel.KAFKA, inputs / 2);
        List<HarnessInput> kafka = new ArrayList<>(first);
        kafka.addAll(withIdenticalPairs(first, generator.channel(Channel.KAFKA, inputs - inputs / 2),
                pairsFor(inputs), random));
        Collections.shuffle(kafka, random);
        return new Backlog(List.of(), List.of(), List.copyOf(kafka));
    }

    private static int pairsFor(int inputs) {
        return Math.max(2, (int) Math.round(inputs * IDENTICAL_PAIR_SHARE));
    }

    /**
     * Turns some valid JMS inputs into Map, Stream and Object messages and undecodable text messages (in turn)
     * wrapping the same envelope.
     */
    private static List<HarnessInput> withProtocolPoison(List<HarnessInput> jms, int count, Random random) {
        List<Integer> validPositions = new ArrayList<>();
        for (int i = 0; i < jms.size(); i++) {
            if (jms.get(i).kind() == Kind.VALID) {
                validPositions.add(i);
            }
        }
        Collections.shuffle(validPositions, random);
        HarnessInput.Body[] types = {HarnessInput.Body.MAP, HarnessInput.Body.STREAM, HarnessInput.Body.OBJECT,
                HarnessInput.Body.UNDECODABLE_TEXT};
        List<HarnessInput> result = new ArrayList<>(jms);
        for (int i = 0; i < count && i < validPositions.size(); i++) {
            HarnessInput valid = result.get(validPositions.get(i));
            HarnessInput.Body type = types[i % types.length];
            result.set(validPositions.get(i), type == HarnessInput.Body.UNDECODABLE_TEXT
                    ? HarnessInput.undecodable(valid.tag(), valid.bytes())
                    : HarnessInput.unsupported(valid.tag(), type, valid.bytes()));
        }
        return result;
    }

    /**
     * Makes some valid inputs of {@code copies} carry the exact bytes of a valid input of {@code originals} (under
     * their own tag, on their own channel): a JMS message and a file, or two Kafka records.
     */
    private static List<HarnessInput> withIdenticalPairs(List<HarnessInput> originals, List<HarnessInput> copies,
            int pairs, Random random) {
        List<HarnessInput> validOriginals = new ArrayList<>(originals.stream()
                .filter(input -> input.kind() == Kind.VALID).toList());
        List<Integer> validCopyPositions = new ArrayList<>();
        for (int i = 0; i < copies.size(); i++) {
            if (copies.get(i).kind() == Kind.VALID) {
                validCopyPositions.add(i);
            }
        }
        Collections.shuffle(validOriginals, random);
        Collections.shuffle(validCopyPositions, random);
        List<HarnessInput> result = new ArrayList<>(copies);
        for (int pair = 0; pair < pairs && pair < validOriginals.size() && pair < validCopyPositions.size(); pair++) {
            HarnessInput original = validOriginals.get(pair);
            int position = validCopyPositions.get(pair);
            HarnessInput copy = result.get(position);
            result.set(position, HarnessInput.of(copy.tag(), copy.channel(), Kind.VALID, original.requestId(), null,
                    original.bytes(), original.claimChecks(), false));
        }
        return result;
    }

    private static List<ObjectNode> readExamples(Path examplesDir) {
        return ExampleEnvelopes.load(examplesDir).stream().map(example -> (ObjectNode) JSON.readTree(example.json())).toList();
    }

    private static final class Generator {

        private final String runId;
        private final Random random;
        private final List<ObjectNode> examples;
        private int sequence;
        private int rejections;

        Generator(String runId, Random random, List<ObjectNode> examples) {
            this.runId = runId;
            this.random = random;
            this.examples = examples;
        }

        List<HarnessInput> channel(Channel channel, int count) {
            int poison = Math.max(2, (int) Math.round(count * POISON_SHARE));
            int rejected = Math.max(Rejection.values().length, (int) Math.round(count * REJECTED_SHARE));
            List<Kind> kinds = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                kinds.add(i < poison ? Kind.POISON : i < poison + rejected ? Kind.REJECTED : Kind.VALID);
            }
            Collections.shuffle(kinds, random);
            List<HarnessInput> inputs = new ArrayList<>(count);
            for (Kind kind : kinds) {
                inputs.add(next(channel, kind));
            }
            return inputs;
        }

        private HarnessInput next(Channel channel, Kind kind) {
            String tag = "fh-" + runId + "-" + String.format("%05d", sequence++);
            return switch (kind) {
                case VALID -> valid(tag, channel);
                case POISON -> poison(tag, channel);
                case REJECTED -> rejected(tag, channel, Rejection.values()[rejections++ % Rejection.values().length]);
                case UNSUPPORTED -> throw new IllegalArgumentException("protocol-level poison is made from valid inputs");
            };
        }

        private HarnessInput valid(String tag, Channel channel) {
            ObjectNode envelope = example();
            envelope.put("request_id", tag);
            // a third of the JMS inputs as BytesMessages: the service takes both
            boolean asBytes = channel == Channel.JMS && random.nextInt(3) == 0;
            return HarnessInput.of(tag, channel, Kind.VALID, tag, null, PRETTY.writeValueAsBytes(envelope),
                    claimChecks(envelope), asBytes);
        }

        /**
         * A valid envelope whose request_id the harness's database refuses ({@link #POISON_SUFFIX}): ClaimGuard stores
         * every value an envelope can hold, so a refusal comes from the database's own rules.
         */
        private HarnessInput poison(String tag, Channel channel) {
            ObjectNode envelope = example();
            String requestId = tag + POISON_SUFFIX;
            envelope.put("request_id", requestId);
            return HarnessInput.of(tag, channel, Kind.POISON, requestId, "processing_failed",
                    PRETTY.writeValueAsBytes(envelope), claimChecks(envelope), false);
        }

        private HarnessInput rejected(String tag, Channel channel, Rejection rejection) {
            byte[] bytes = switch (rejection) {
                case NOT_JSON -> utf8("{\"request_id\": \"" + tag + "\", \"verifier_output\": {\"verdict\": \"PASS\",");
                case NOT_UTF8 -> notUtf8(tag);
                case REQUEST_ID_INVALID -> {
                    ObjectNode envelope = example();
                    envelope.put("request_id", tag + "/attempt 2");
                    yield PRETTY.writeValueAsBytes(envelope);
                }
                case VERIFIER_OUTPUT_MISSING -> {
                    ObjectNode envelope = example();
                    envelope.put("request_id", tag);
                    envelope.remove("verifier_output");
                    yield PRETTY.writeValueAsBytes(envelope);
                }
            };
            // bytes that are not UTF-8 cannot be a TextMessage
            boolean asBytes = rejection == Rejection.NOT_UTF8;
            return HarnessInput.of(tag, channel, Kind.REJECTED, null, rejection.code, bytes, 0, asBytes);
        }

        private static byte[] notUtf8(String tag) {
            byte[] head = utf8("{\"request_id\": \"" + tag + "\", \"verifier_output\": {\"rationale\": \"");
            byte[] tail = utf8("\"}}");
            byte[] bytes = new byte[head.length + 2 + tail.length];
            System.arraycopy(head, 0, bytes, 0, head.length);
            bytes[head.length] = (byte) 0xC3; // a lead byte followed by one that cannot continue it
            bytes[head.length + 1] = (byte) 0x28;
            System.arraycopy(tail, 0, bytes, head.length + 2, tail.length);
            return bytes;
        }

        private ObjectNode example() {
            return examples.get(random.nextInt(examples.size())).deepCopy();
        }

        private static int claimChecks(JsonNode envelope) {
            JsonNode checks = envelope.path("verifier_output").path("claim_checks");
            return checks.isArray() ? checks.size() : 0;
        }

        private static byte[] utf8(String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
    }
}
