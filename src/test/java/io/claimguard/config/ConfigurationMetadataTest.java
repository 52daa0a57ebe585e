package io.claimguard.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration metadata the build generates (spring-boot-configuration-processor, from the
 * {@code @ConfigurationProperties} records and their {@code @param}s) against the configuration table of
 * docs/operating.md: the same keys, each described. {@link ConfigurationTableTest} holds the table's defaults to
 * application.yml.
 */
class ConfigurationMetadataTest {

    private static final Path METADATA = Path.of("target/classes/META-INF/spring-configuration-metadata.json");

    @Test
    @DisplayName("Scenario: The configuration table and the generated metadata name the same keys, each described")
    void tableAndMetadataNameTheSameKeys() throws IOException {
        Map<String, JsonNode> generated = claimguardProperties();
        Set<String> documented = ConfigurationTableTest.documentedDefaults("docs/operating.md", "## Configuration", 50)
                .keySet();

        assertThat(generated).as("claimguard keys in %s", METADATA).hasSizeGreaterThan(50);
        assertThat(generated.entrySet()).as("generated keys without a description (a record component without @param)")
                .filteredOn(property -> property.getValue().path("description").asString("").isBlank())
                .extracting(Map.Entry::getKey).isEmpty();
        assertThat(documented).as("rows of docs/operating.md that the generated metadata does not name")
                .filteredOn(key -> !generated.containsKey(key) && generated.keySet().stream()
                        .noneMatch(collection -> isCollection(generated.get(collection)) && key.startsWith(collection + ".")))
                .isEmpty();
        assertThat(generated.keySet()).as("generated keys without a row in docs/operating.md")
                .filteredOn(key -> !documented.contains(key)
                        && !(isCollection(generated.get(key)) && documented.stream().anyMatch(row -> row.startsWith(key + "."))))
                .isEmpty();
    }

    /** A list or map of settings: the table names the keys of its elements. */
    private static boolean isCollection(JsonNode property) {
        String type = property.path("type").asString("");
        return type.startsWith("java.util.List<") || type.startsWith("java.util.Map<");
    }

    private static Map<String, JsonNode> claimguardProperties() throws IOException {
        assertThat(METADATA).as("the configuration metadata the compile step writes").exists();
        JsonNode metadata = JsonMapper.builder().build().readTree(METADATA.toFile());
        Map<String, JsonNode> properties = new TreeMap<>();
        for (JsonNode property : metadata.path("properties")) {
            String name = property.path("name").asString();
            if (name.startsWith("claimguard.")) {
                properties.put(name, property);
            }
        }
        return properties;
    }

}
