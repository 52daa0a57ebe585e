package io.claimguard.harness.bench;

import io.claimguard.harness.bench.BenchEnvelopes.BenchEnvelope;
import io.claimguard.testkit.HarnessInput;
import io.claimguard.testkit.HarnessInput.Channel;
import io.claimguard.testkit.HarnessInput.Kind;
import io.claimguard.testkit.JmsClient;
import jakarta.jms.JMSException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** What the harness's parts share: the envelope streams, how inputs are handed over, and the log. */
final class Bench {

    /** The JMS backlog; the ceiling and the baseline write the same envelopes. */
    static final String JMS_STREAM = "jms";
    static final String FILE_STREAM = "files";
    static final String JMS_LATENCY_STREAM = "lat-jms";
    static final String WARM_UP_STREAM = "warm-jms";
    static final String WARM_UP_FILE_STREAM = "warm-files";
    static final String FILE_LATENCY_STREAM = "lat-files";
    static final String MEMORY_STREAM = "mem";
    static final String KAFKA_STREAM = "kafka";
    static final String WARM_UP_KAFKA_STREAM = "warm-kafka";
    static final String KAFKA_LATENCY_STREAM = "lat-kafka";

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private Bench() {
    }

    /**
     * Envelopes {@code from .. to-1} of a stream as the fault harness's inputs, for {@code JmsClient.send}; each
     * envelope is also shown to {@code each} (e.g. to tally the mix of a backlog too large to keep).
     */
    /** Envelopes queued per JMS transaction. */
    static final int SEND_CHUNK = 1_000;

    static List<HarnessInput> jmsInputs(BenchEnvelopes workload, String stream, int from, int to,
            Consumer<BenchEnvelope> each) {
        List<HarnessInput> inputs = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            BenchEnvelope envelope = workload.envelope(stream, i);
            each.accept(envelope);
            inputs.add(HarnessInput.of(envelope.requestId(), Channel.JMS, Kind.VALID, envelope.requestId(), null,
                    envelope.bytes(), envelope.claimChecks(), false));
        }
        return inputs;
    }

    /**
     * Queues envelopes {@code 0 .. count-1} of a stream on a queue, in transactions of {@value #SEND_CHUNK}
     * messages; each envelope is also shown to {@code each}.
     */
    static void queueJms(JmsClient jms, String queue, BenchEnvelopes workload, String stream, int count,
            Consumer<BenchEnvelope> each) throws JMSException {
        for (int from = 0; from < count; from += SEND_CHUNK) {
            jms.send(queue, jmsInputs(workload, stream, from, Math.min(count, from + SEND_CHUNK), each));
        }
    }

    /** Drops one file as writers must: written under a temporary name, then renamed to {@code *.json}. */
    static void dropFile(Path inbox, BenchEnvelope envelope) throws IOException {
        Path temporary = inbox.resolve(envelope.requestId() + ".tmp");
        Files.write(temporary, envelope.bytes());
        Files.move(temporary, inbox.resolve(envelope.requestId() + ".json"), StandardCopyOption.ATOMIC_MOVE);
    }

    /** The {@code audit_id} of an effective result. */
    static long auditIdOf(byte[] effectiveResult) {
        JsonNode id = JSON.readTree(effectiveResult).get("audit_id");
        if (id == null || !id.isIntegralNumber()) {
            throw new IllegalStateException("an effective result without an audit_id: "
                    + new String(effectiveResult, 0, Math.min(200, effectiveResult.length), StandardCharsets.UTF_8));
        }
        return id.longValue();
    }

    /**
     * Writes a result as {@code <kind>-<stamp>.json} (the report object, pretty-printed) and {@code .md}; returns the
     * JSON file.
     */
    static Path writeResult(Path directory, String kind, String stamp, Object report, String markdown) throws IOException {
        Files.createDirectories(directory);
        Path json = directory.resolve(kind + "-" + stamp + ".json");
        Files.writeString(json, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report) + "\n",
                StandardCharsets.UTF_8);
        Files.writeString(directory.resolve(kind + "-" + stamp + ".md"), markdown, StandardCharsets.UTF_8);
        return json;
    }

    /** Progress lines, stamped with the seconds since the run began, as the fault harness writes them. */
    static final class Log {

        private final Instant started;

        Log(Instant started) {
            this.started = started;
        }

        void line(String format, Object... arguments) {
            System.out.printf(Locale.ROOT, "[%6.1f s] %s%n", Duration.between(started, Instant.now()).toMillis() / 1000.0,
                    String.format(Locale.ROOT, format, arguments));
        }
    }
}
