package io.claimguard.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The threat model claims a control only with the test that proves it: every test class it names must exist, hold
 * tests, and every table row of a control must name one.
 */
class ThreatModelTest {

    private static final Path THREAT_MODEL = Path.of("docs/threat-model.md");
    private static final Path TESTS = Path.of("src/test/java");
    private static final Pattern TEST_NAME = Pattern.compile("`([A-Z][A-Za-z0-9]*(?:IT|Test))`");
    private static final Pattern CONTROL_ROW = Pattern.compile("^\\| (?!control \\|)(?!---)(.+) \\| (.*) \\|$", Pattern.MULTILINE);

    @Test
    @DisplayName("Scenario: Every test the threat model names exists and every control names one")
    void everyControlNamesAnExistingTest() throws IOException {
        String threatModel = Files.readString(THREAT_MODEL);
        Set<String> named = new TreeSet<>();
        Matcher names = TEST_NAME.matcher(threatModel);
        while (names.find()) {
            named.add(names.group(1));
        }
        Set<String> existing = testClassesWithTests();

        assertThat(named).as("tests named in %s", THREAT_MODEL).isNotEmpty();
        assertThat(existing).as("test classes under %s holding @Test methods", TESTS).containsAll(named);
        for (String section : threatModel.split("\n(?=\\| control \\| test \\|)")) {
            if (!section.startsWith("| control | test |")) {
                continue;
            }
            String table = section.lines().takeWhile(line -> line.startsWith("|")).collect(Collectors.joining("\n"));
            Matcher row = CONTROL_ROW.matcher(table);
            while (row.find()) {
                assertThat(TEST_NAME.matcher(row.group(2)).find()).as("the control '%s' names its test", row.group(1)).isTrue();
            }
        }
    }

    private static Set<String> testClassesWithTests() throws IOException {
        try (Stream<Path> files = Files.walk(TESTS)) {
            return files.filter(file -> file.toString().endsWith(".java")).filter(ThreatModelTest::holdsTests)
                    .map(file -> file.getFileName().toString().replaceFirst("\\.java$", ""))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static boolean holdsTests(Path file) {
        try {
            return Files.readString(file).contains("@Test");
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }
}
