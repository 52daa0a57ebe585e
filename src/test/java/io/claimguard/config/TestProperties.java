package io.claimguard.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.springframework.beans.factory.config.YamlPropertiesFactoryBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.io.FileSystemResource;
import org.springframework.util.PropertyPlaceholderHelper;

/**
 * {@link ClaimGuardProperties} for a unit test, bound as the service binds them: application.yml's defaults, with the
 * test's own settings over them ({@code "claimguard.instance-id=test"}), so that no test restates a default or
 * depends on the order of the record's components.
 */
public final class TestProperties {

    private TestProperties() {
    }

    /** The properties of application.yml with {@code settings}, each {@code key=value}, over them. */
    public static ClaimGuardProperties claimGuard(String... settings) {
        Map<String, Object> overrides = new LinkedHashMap<>();
        for (String setting : settings) {
            int equals = setting.indexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException("not key=value: " + setting);
            }
            overrides.put(setting.substring(0, equals), setting.substring(equals + 1));
        }
        MutablePropertySources sources = new MutablePropertySources();
        sources.addFirst(new MapPropertySource("test settings", overrides));
        try {
            new YamlPropertySourceLoader().load("application.yml",
                    new FileSystemResource("src/main/resources/application.yml")).forEach(sources::addLast);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Binder(ConfigurationPropertySources.from(sources), new PropertySourcesPlaceholdersResolver(sources))
                .bind("claimguard", ClaimGuardProperties.class).get();
    }

    /** Every value of application.yml as text, placeholders resolved, lists and maps without their index. */
    public static Map<String, String> applicationYaml() {
        YamlPropertiesFactoryBean yaml = new YamlPropertiesFactoryBean();
        yaml.setResources(new FileSystemResource("src/main/resources/application.yml"));
        // as text: the YAML's numbers and booleans come as Integer and Boolean, which Properties' string view leaves out
        Properties properties = new Properties();
        yaml.getObject().forEach((name, value) -> properties.setProperty(name.toString(), value.toString()));
        PropertyPlaceholderHelper placeholders = new PropertyPlaceholderHelper("${", "}", ":", null, true);
        return properties.stringPropertyNames().stream().collect(Collectors.toMap(name -> name.replaceAll("\\[[^]]*]", ""),
                name -> placeholders.replacePlaceholders(properties.getProperty(name), properties), (first, next) -> first));
    }
}
