package io.claimguard.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.testkit.Envelopes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keeps examples/README.md true: every example envelope is read through the real reader and must give the
 * projection mode, guard reasons, verdicts and findings that its row in the README's table states.
 */
class ExamplesTest {

    private static final Path EXAMPLES = Path.of("examples");
    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** A finding as the README's table writes it: {@code code (claim_checks[ordinal])}, or just the code. */
    private static final Pattern FINDING_CELL = Pattern.compile("([a-z_.]+)(?: \\(claim_checks\\[(\\d+)]\\))?");

    /** One row of the README's table. */
    record Expectation(String file, String projectionMode, List<String> guardReasons, String modelVerdict, String effectiveVerdict,
            List<ExpectedFinding> findings) {
    }

    /** A finding's code and claim ordinal (null for the whole output), as the README's table lists it. */
    record ExpectedFinding(String code, Integer claimOrdinal) {
    }

    @Test
    @DisplayName("Every example file has a row in the README table and every row a file")
    void everyExampleFileHasARowAndEveryRowAFile() throws IOException {
        assertThat(expectations().keySet()).containsExactlyInAnyOrderElementsOf(exampleFiles());
    }

    @Test
    @DisplayName("Every example has its own request_id")
    void everyExampleHasItsOwnRequestId() throws IOException, EnvelopeRejectedException {
        List<String> requestIds = new ArrayList<>();
        for (String file : exampleFiles()) {
            requestIds.add(read(file).requestId());
        }
        assertThat(requestIds).doesNotHaveDuplicates();
    }

    @Test
    @DisplayName("Scenario: A clean example has no finding")
    void aCleanExampleHasNoFinding() throws IOException, EnvelopeRejectedException {
        List<Expectation> clean = expectations().values().stream().filter(expected -> expected.findings().isEmpty()).toList();

        assertThat(clean).as("examples without a finding").hasSizeGreaterThanOrEqualTo(9);
        for (Expectation expected : clean) {
            assertThat(Verification.of(read(expected.file())).findings()).as(expected.file()).isEmpty();
        }
    }

    @TestFactory
    @DisplayName("Every example gives what the README table says")
    Stream<DynamicTest> everyExampleGivesWhatTheReadmeTableSays() throws IOException {
        return expectations().values().stream()
                .map(expected -> DynamicTest.dynamicTest(expected.file(), () -> assertMatches(expected)));
    }

    private static void assertMatches(Expectation expected) throws IOException, EnvelopeRejectedException {
        Verification verification = Verification.of(read(expected.file()));
        JsonNode result = MAPPER.readTree(EffectiveResult.toJson(verification, 1L));

        assertThat(verification.projection().mode().label()).isEqualTo(expected.projectionMode());
        assertThat(verification.guard().reasonCodes()).containsExactlyElementsOf(expected.guardReasons());
        assertThat(verification.guard().modelVerdict().map(Verdict::name).orElse(null)).isEqualTo(expected.modelVerdict());
        assertThat(verification.guard().effectiveVerdict().name()).isEqualTo(expected.effectiveVerdict());
        assertThat(verification.findings()).extracting(finding -> new ExpectedFinding(finding.code().code(), finding.claimOrdinal()))
                .containsExactlyElementsOf(expected.findings());

        assertThat(result.path("projection_mode").stringValue()).isEqualTo(expected.projectionMode());
        assertThat(result.path("verdict_guard").path("reasons").values()).extracting(reason -> reason.path("code").stringValue())
                .containsExactlyElementsOf(expected.guardReasons());
        assertThat(result.path("model_verdict").isNull() ? null : result.path("model_verdict").stringValue())
                .isEqualTo(expected.modelVerdict());
        assertThat(result.path("verdict").stringValue()).isEqualTo(expected.effectiveVerdict());
    }

    private static Envelope read(String file) throws IOException, EnvelopeRejectedException {
        return Envelopes.READER.read(Files.readAllBytes(EXAMPLES.resolve(file)));
    }

    private static List<String> exampleFiles() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            return files.map(path -> path.getFileName().toString()).filter(name -> name.endsWith(".json")).sorted().toList();
        }
    }

    /** The README's table by file name, columns found by their header so that the table may gain columns. */
    private static Map<String, Expectation> expectations() throws IOException {
        List<String> lines = Files.readAllLines(EXAMPLES.resolve("README.md"));
        int header = lines.indexOf(lines.stream().filter(line -> line.startsWith("| file |")).findFirst()
                .orElseThrow(() -> new AssertionError("examples/README.md has no table starting with '| file |'")));
        List<String> columns = cells(lines.get(header));
        Map<String, Expectation> expectations = new HashMap<>();
        for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            List<String> row = cells(lines.get(i));
            Expectation expectation = new Expectation(
                    row.get(columns.indexOf("file")),
                    row.get(columns.indexOf("projection mode")),
                    reasons(row.get(columns.indexOf("guard reasons"))),
                    nullable(row.get(columns.indexOf("model verdict"))),
                    row.get(columns.indexOf("effective verdict")),
                    findings(row.get(columns.indexOf("findings"))));
            assertThat(expectations.put(expectation.file(), expectation)).as("rows for " + expectation.file()).isNull();
        }
        return expectations;
    }

    private static List<String> cells(String line) {
        String inner = line.strip().substring(1, line.strip().length() - 1);
        return Arrays.stream(inner.split("\\|")).map(cell -> cell.strip().replace("`", "")).toList();
    }

    private static List<String> reasons(String cell) {
        return cell.equals("none") ? List.of() : Arrays.stream(cell.split(",")).map(String::strip).toList();
    }

    private static List<ExpectedFinding> findings(String cell) {
        return reasons(cell).stream().map(finding -> {
            Matcher matcher = FINDING_CELL.matcher(finding);
            assertThat(matcher.matches()).as("finding cell %s", finding).isTrue();
            return new ExpectedFinding(matcher.group(1), matcher.group(2) == null ? null : Integer.valueOf(matcher.group(2)));
        }).toList();
    }

    private static String nullable(String cell) {
        return cell.equals("null") ? null : cell;
    }
}
