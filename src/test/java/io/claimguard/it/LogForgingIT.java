package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.spi.ILoggingEvent;
import io.claimguard.observe.RepeatedLinesFilter;
import io.claimguard.pipeline.Redrive;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.logging.logback.StructuredLogEncoder;
import tools.jackson.databind.json.JsonMapper;

/**
 * Values from input that hold line breaks (a file name, a re-drive property, a rejected file's name) as the running
 * service logs them: each line stays one line, rendered as the console writes it and as an ECS JSON document, and no
 * text of the input starts a line or passes for a field of its own.
 */
class LogForgingIT extends ServiceTestSupport {

    private static final String FORGED = "2026-12-04T00:00:00.000Z  INFO 1 --- [claimguard] io.claimguard.audit.summary : audited";

    @Test
    @DisplayName("Scenario: A file name, a request id and a re-drive property with line breaks make one log line each")
    void aNameWithALineBreakCannotForgeALine() {
        String id = uniqueId("forge");
        String audited = "n\n" + FORGED + " request_id=" + id + "-fake source_ref=x verdict=PASS " + id + ".json";
        String rejected = "r\r\n" + FORGED + " verdict=PASS " + id + ".json";
        List<ILoggingEvent> lines;
        try (LogCapture log = new LogCapture()) {
            dropFile(audited, utf8(passingV1(id + "-file")));
            dropFile(rejected, utf8("[1]"));
            // the JSON escape: the request id itself holds the line break
            dropFile("rid-" + id + ".json", utf8(passingV1(id + "\\n" + FORGED)));
            send(session -> withRedriveOf(session, passingV1(id + "-jms"), "7\n" + FORGED + " verdict=PASS"), id);
            await().atMost(PATIENCE).until(() -> Files.exists(done(audited)) && Files.exists(error(rejected))
                    && Files.exists(error("rid-" + id + ".json"))
                    && !log.lines("request_id=" + id + "-file ").isEmpty() && !log.lines("request_id=" + id + "-jms ").isEmpty()
                    && !log.lines(Redrive.PROPERTY + " '7").isEmpty());
            lines = java.util.stream.Stream.concat(log.lines(id).stream(), log.lines(Redrive.PROPERTY + " '7").stream()).toList();
        }

        assertThat(lines).extracting(ILoggingEvent::getLoggerName).contains("io.claimguard.audit.summary",
                "io.claimguard.verify.EnvelopeStep", "io.claimguard.intake.JmsIntakeRoute");
        PatternLayout console = consoleLayout();
        StructuredLogEncoder ecs = ecsEncoder();
        for (ILoggingEvent line : lines) {
            String written = console.doLayout(line);
            assertThat(written.lines()).as(written).hasSize(1);
            assertThat(written).doesNotContain("\r", "\u2028", "\u0085");
            String document = new String(ecs.encode(line), StandardCharsets.UTF_8);
            assertThat(document.strip().lines()).as(document).hasSize(1);
            assertThat(JsonMapper.builder().build().readTree(document).path("message").asString())
                    .as("the JSON document's message reads as the console line's").isEqualTo(line.getFormattedMessage());
        }
        assertThat(log(lines, "request_id=" + id + "-file ")).contains(" source_ref=\"n\\n" + FORGED)
                .contains(" verdict=PASS " + id + ".json\" verdict=PASS ")
                .as("the forged request id is inside the quoted source_ref only").startsWith("audited request_id=" + id + "-file ");
        assertThat(log(lines, "rejected file input \"r")).contains("\"r\\r\\n" + FORGED);
        assertThat(log(lines, "rid-" + id)).as("a request id with a line break is rejected, on one line")
                .startsWith("rejected file input rid-" + id + ".json (").contains("request_id.invalid");
        assertThat(log(lines, Redrive.PROPERTY)).contains("'7\\n" + FORGED + " verdict=PASS'");
        assertThat(((LoggerContext) LoggerFactory.getILoggerFactory()).getTurboFilterList())
                .as("the bound is on, as configured").filteredOn(RepeatedLinesFilter.class::isInstance).singleElement()
                .extracting(filter -> ((RepeatedLinesFilter) filter).maxRepeats()).isEqualTo(MAX_REPEATS_PER_MINUTE);
    }

    private static jakarta.jms.Message withRedriveOf(jakarta.jms.Session session, String text, String redriveOf) {
        try {
            jakarta.jms.Message message = session.createTextMessage(text);
            message.setStringProperty(Redrive.PROPERTY, redriveOf);
            return message;
        } catch (jakarta.jms.JMSException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String log(List<ILoggingEvent> lines, String text) {
        return lines.stream().map(ILoggingEvent::getFormattedMessage).filter(line -> line.contains(text)).findFirst()
                .orElseThrow(() -> new AssertionError("no line holds " + text + ": " + lines));
    }

    /** Spring Boot's ECS JSON document, as the json-logs profile writes it (the running service's Environment). */
    private static StructuredLogEncoder ecsEncoder() {
        StructuredLogEncoder encoder = new StructuredLogEncoder();
        encoder.setFormat("ecs");
        encoder.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
        encoder.start();
        return encoder;
    }

    /** Spring Boot's console line: date, level, thread, logger, message, line end. */
    private static PatternLayout consoleLayout() {
        PatternLayout layout = new PatternLayout();
        layout.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
        layout.setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %5p --- [%t] %-40.40logger{39} : %m%n");
        layout.start();
        return layout;
    }
}
