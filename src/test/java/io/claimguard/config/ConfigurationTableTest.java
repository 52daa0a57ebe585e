package io.claimguard.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

/**
 * The configuration table of docs/operating.md against the code: every {@code claimguard.*} key the
 * {@code @ConfigurationProperties} records bind (and the few read with {@code @Value}) has a row, every row names such
 * a key, and a row's default is the value application.yml gives (a default that is not a literal, "none" or "host name
 * and process id", stands for a blank value). Keys of lists and maps are compared without their index
 * ({@code claimguard.explorer.users[n].name} is {@code claimguard.explorer.users.name}).
 */
class ConfigurationTableTest {

    /** Every {@code @ConfigurationProperties} class of the main code, found by scanning: a new one cannot escape. */
    private static final List<Class<?>> PROPERTIES = configurationPropertiesClasses();

    /** {@code @Value("${claimguard.x.y}")} or {@code @Value("${claimguard.x.y:default}")} in the main sources. */
    private static final Pattern VALUE_KEY = Pattern.compile("@Value\\(\"\\$\\{(claimguard\\.[a-z0-9.-]+)[:}]");

    private static final Pattern QUOTED = Pattern.compile("`([^`]*)`");

    @Test
    @DisplayName("Scenario: The configuration table names every key the code binds, with application.yml's default")
    void tableMatchesTheCode() throws IOException {
        Set<String> bound = boundKeys();
        Map<String, String> documented = documentedDefaults("docs/operating.md", "## Configuration", 50);
        Map<String, String> yaml = applicationYaml();

        assertThat(documented.keySet()).as("rows of docs/operating.md that no properties record binds")
                .isSubsetOf(bound);
        assertThat(bound).as("keys the code binds without a row in docs/operating.md")
                .isSubsetOf(documented.keySet());
        // an empty list of records (users: []) is a key of its own in the YAML, above the keys of its elements
        assertThat(yaml.keySet()).as("claimguard.* keys of application.yml that nothing binds")
                .filteredOn(key -> !(yaml.get(key).isEmpty() && bound.stream().anyMatch(leaf -> leaf.startsWith(key + "."))))
                .isSubsetOf(bound);
        documented.forEach((key, documentedDefault) -> assertThat(yaml.getOrDefault(key, ""))
                .as("application.yml's value of %s, which docs/operating.md gives as the default", key)
                .isEqualTo(documentedDefault));
    }

    /** The table's parser: the shapes of its first two columns, one by one. */
    @Test
    @DisplayName("The table's rows are read as written: siblings, parenthesised variants, indexes, words for blank")
    void rowsAreReadAsWritten() {
        assertThat(row("| `claimguard.file.redelivery-delay` / `max-redelivery-delay` | `1s` / `60s` | x |"))
                .containsExactly(Map.entry("claimguard.file.redelivery-delay", "1s"),
                        Map.entry("claimguard.file.max-redelivery-delay", "60s"));
        assertThat(row("| `claimguard.policy.name` / `.version` | `default` / `1` | x |"))
                .containsExactly(Map.entry("claimguard.policy.name", "default"), Map.entry("claimguard.policy.version", "1"));
        assertThat(row("| `claimguard.broker.users.producer.user` / `.password` (and `.consumer.`, `.operator.`) | none | x |"))
                .containsOnlyKeys("claimguard.broker.users.producer.user", "claimguard.broker.users.producer.password",
                        "claimguard.broker.users.consumer.user", "claimguard.broker.users.consumer.password",
                        "claimguard.broker.users.operator.user", "claimguard.broker.users.operator.password")
                .containsValue("").doesNotContainValue("none");
        assertThat(row("| `claimguard.explorer.users[n].name` / `.password` | none | x |"))
                .containsOnlyKeys("claimguard.explorer.users.name", "claimguard.explorer.users.password");
        assertThat(row("| `claimguard.policy.rule-caps[<rule code>]` | none | x |"))
                .containsExactly(Map.entry("claimguard.policy.rule-caps", ""));
        assertThat(row("| `claimguard.broker.credentials-file` | `data/artemis/credentials.properties` (`credentials.properties`"
                + " in `claimguard.broker.data-directory`) | x |"))
                .containsExactly(Map.entry("claimguard.broker.credentials-file", "data/artemis/credentials.properties"));
        assertThat(row("| `claimguard.checkpoint.private-key` | (blank: off) | x |"))
                .containsExactly(Map.entry("claimguard.checkpoint.private-key", ""));
    }

    private static Set<String> boundKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        for (Class<?> properties : PROPERTIES) {
            addKeys(properties.getAnnotation(ConfigurationProperties.class).value(), properties, keys);
        }
        try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
            for (Path source : sources.filter(file -> file.toString().endsWith(".java")).toList()) {
                Matcher value = VALUE_KEY.matcher(Files.readString(source));
                while (value.find()) {
                    keys.add(value.group(1));
                }
            }
        }
        return keys;
    }

    /** A record's keys: its components in kebab case; a nested record, or a list of records, adds its own below. */
    private static void addKeys(String prefix, Class<?> record, Set<String> keys) {
        for (RecordComponent component : record.getRecordComponents()) {
            String key = prefix + "." + component.getName().replaceAll("([A-Z])", "-$1").toLowerCase();
            Class<?> type = component.getType();
            if (type.isRecord() && !PROPERTIES.contains(type)) {
                addKeys(key, type, keys);
            } else if (List.class.isAssignableFrom(type)
                    && component.getGenericType() instanceof ParameterizedType list
                    && list.getActualTypeArguments()[0] instanceof Class<?> element && element.isRecord()) {
                addKeys(key, element, keys);
            } else {
                keys.add(key);
            }
        }
    }

    /** docs/interface.md's section 8 repeats the keys that shape the interface: each a real key with its real default. */
    @Test
    @DisplayName("docs/interface.md's repeated rows name real keys, with application.yml's defaults")
    void interfaceTableNamesRealKeysWithTheirDefaults() throws IOException {
        Set<String> bound = boundKeys();
        Map<String, String> yaml = applicationYaml();
        Map<String, String> repeated = documentedDefaults("docs/interface.md", "## 8. Configuration", 15);

        assertThat(repeated.keySet()).as("rows of docs/interface.md that no properties record binds").isSubsetOf(bound);
        repeated.forEach((key, documentedDefault) -> assertThat(yaml.getOrDefault(key, ""))
                .as("application.yml's value of %s, which docs/interface.md gives as the default", key)
                .isEqualTo(documentedDefault));
    }

    /** The keys and defaults of the claimguard rows of {@code page}'s section under {@code heading}. */
    static Map<String, String> documentedDefaults(String page, String heading, int atLeast) throws IOException {
        Map<String, String> defaults = new LinkedHashMap<>();
        boolean inSection = false;
        for (String line : Files.readAllLines(Path.of(page))) {
            if (line.startsWith("## ")) {
                inSection = line.equals(heading);
            } else if (inSection && line.startsWith("| `claimguard.")) {
                defaults.putAll(row(line));
            }
        }
        assertThat(defaults).as("claimguard rows of %s, %s", page, heading).hasSizeGreaterThan(atLeast);
        return defaults;
    }

    /**
     * One row's keys and defaults. The first column names a key, then siblings that replace its last segment
     * ({@code / `max-redelivery-delay`}, {@code / `.version`}) and, in parentheses, segments that replace the one before
     * the last ({@code (and `.consumer.`)}); the second column gives one default for all, or one per key before the
     * parentheses, each a quoted literal or words that stand for a blank value.
     */
    static Map<String, String> row(String line) {
        String[] cells = line.split(" \\| ");
        String keyCell = cells[0].substring(2);
        int aside = keyCell.indexOf('(');
        List<String> named = quoted(aside < 0 ? keyCell : keyCell.substring(0, aside));
        List<String> keys = new ArrayList<>();
        String first = named.get(0).replaceAll("\\[[^]]*]", "");
        keys.add(first);
        for (String sibling : named.subList(1, named.size())) {
            keys.add(first.substring(0, first.lastIndexOf('.') + 1) + sibling.replaceFirst("^\\.", ""));
        }
        List<String> defaults = Stream.of(cells[1].split(" / ")).map(part -> {
            List<String> literal = quoted(part);
            return literal.isEmpty() ? "" : literal.get(0);
        }).toList();
        assertThat(defaults.size()).as("defaults of: %s", line).isIn(1, keys.size());
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            row.put(keys.get(i), defaults.get(defaults.size() == 1 ? 0 : i));
        }
        if (aside >= 0) {
            for (String segment : quoted(keyCell.substring(aside))) {
                for (String key : List.copyOf(row.keySet())) {
                    String parent = key.substring(0, key.lastIndexOf('.'));
                    String other = parent.substring(0, parent.lastIndexOf('.')) + segment + key.substring(key.lastIndexOf('.') + 1);
                    row.putIfAbsent(other, row.get(key));
                }
            }
        }
        return row;
    }

    private static List<String> quoted(String text) {
        List<String> found = new ArrayList<>();
        Matcher matcher = QUOTED.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }

    private static Map<String, String> applicationYaml() {
        Map<String, String> yaml = new TreeMap<>(TestProperties.applicationYaml());
        yaml.keySet().removeIf(key -> !key.startsWith("claimguard."));
        return yaml;
    }

    private static List<Class<?>> configurationPropertiesClasses() {
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
        List<Class<?>> classes = new ArrayList<>();
        for (BeanDefinition candidate : scanner.findCandidateComponents("io.claimguard")) {
            Class<?> type = ClassUtils.resolveClassName(candidate.getBeanClassName(), ConfigurationTableTest.class.getClassLoader());
            // main code only: test sources may hold properties of their own
            if (type.getProtectionDomain().getCodeSource().getLocation().getPath().contains("/test-classes/")) {
                continue;
            }
            classes.add(type);
        }
        assertThat(classes).as("@ConfigurationProperties classes found").contains(ClaimGuardProperties.class);
        return classes;
    }
}
