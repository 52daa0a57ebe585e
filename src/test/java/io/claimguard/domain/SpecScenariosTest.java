package io.claimguard.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Ties the specs to the tests: every {@code #### Scenario:} in openspec/specs is proven by exactly one test whose
 * {@code @DisplayName} is "Scenario: " and the scenario's name, and no test names a scenario that is gone.
 */
class SpecScenariosTest {

    private static final Path SPECS = Path.of("openspec/specs");
    private static final Path TESTS = Path.of("src/test/java");
    private static final Pattern SPEC_SCENARIO = Pattern.compile("^#### Scenario: (.+)$", Pattern.MULTILINE);
    private static final Pattern TEST_SCENARIO = Pattern.compile("@DisplayName\\(\"Scenario: ((?:[^\"\\\\]|\\\\.)*)\"\\)");

    @Test
    @DisplayName("Every spec scenario is proven by exactly one test, and every scenario test names a spec scenario")
    void everySpecScenarioIsProvenByExactlyOneTest() throws IOException {
        List<String> specScenarios = matches(SPEC_SCENARIO, filesEndingWith(SPECS, "spec.md"));
        List<String> testScenarios = matches(TEST_SCENARIO, filesEndingWith(TESTS, ".java")).stream()
                .map(SpecScenariosTest::unescapeJava)
                .toList();

        assertThat(specScenarios).as("scenario names across all specs").isNotEmpty().doesNotHaveDuplicates();
        assertThat(testScenarios).as("scenarios named by more than one test").doesNotHaveDuplicates();
        assertThat(testScenarios).as("scenario tests").containsExactlyInAnyOrderElementsOf(specScenarios);
    }

    private static List<Path> filesEndingWith(Path root, String suffix) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(path -> path.toString().endsWith(suffix)).sorted().toList();
        }
    }

    private static List<String> matches(Pattern pattern, List<Path> files) throws IOException {
        List<String> found = new ArrayList<>();
        for (Path file : files) {
            Matcher matcher = pattern.matcher(Files.readString(file));
            while (matcher.find()) {
                found.add(matcher.group(1).strip());
            }
        }
        return found;
    }

    private static String unescapeJava(String literal) {
        return literal.replace("\\\"", "\"").replace("\\\\", "\\");
    }
}
