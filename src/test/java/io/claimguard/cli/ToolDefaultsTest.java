package io.claimguard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.config.TestProperties;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A tool's default that is the service's setting ({@code ${env:CLAIMGUARD_JMS_INPUT_QUEUE:-verifier.results}}, or an
 * option described "as claimguard.policy.name") is application.yml's value of that setting, so that a tool run beside
 * a service with no settings of its own reaches what the service uses.
 */
class ToolDefaultsTest {

    private static final Pattern SERVICE_SETTING = Pattern.compile("\\$\\{env:([A-Z_]+):-([^}]*)}");
    /** Settings of a tool alone: the service never archives (its runtime login cannot drop a partition). */
    private static final Set<String> TOOL_ONLY_SETTINGS = Set.of("CLAIMGUARD_RETENTION_MAX_AGE");
    private static final Pattern AS_SETTING = Pattern.compile(".*\\bas (claimguard\\.[a-z.-]+[a-z]).*");

    @Test
    @DisplayName("A tool's default for a service setting is application.yml's value of that setting")
    void toolDefaultsAreTheServicesDefaults() {
        Map<String, String> yaml = TestProperties.applicationYaml();
        List<String> checked = new ArrayList<>();
        // as written, ${env:...} not yet replaced
        CommandLine cli = new CommandLine(new ClaimGuardCli()).setInterpolateVariables(false);
        for (CommandLine tool : cli.getSubcommands().values()) {
            for (OptionSpec option : tool.getCommandSpec().options()) {
                Matcher named = AS_SETTING.matcher(String.join(" ", option.description()));
                if (named.matches() && option.defaultValue() != null) {
                    assertThat(option.defaultValue()).as("%s %s: the default of %s", tool.getCommandName(),
                            option.longestName(), named.group(1)).isEqualTo(yaml.get(named.group(1)));
                    checked.add(tool.getCommandName() + " " + option.longestName());
                }
                Matcher setting = SERVICE_SETTING.matcher(String.valueOf(option.defaultValue()));
                if (!setting.matches() || TOOL_ONLY_SETTINGS.contains(setting.group(1))) {
                    continue;
                }
                String environment = setting.group(1);
                String key = yaml.keySet().stream()
                        .filter(name -> name.toUpperCase().replaceAll("[.-]", "_").equals(environment)).findFirst()
                        .orElseThrow(() -> new AssertionError(environment + " names no setting of application.yml"));
                assertThat(setting.group(2)).as("%s %s: the default of %s", tool.getCommandName(), option.longestName(), key)
                        .isEqualTo(yaml.get(key));
                checked.add(tool.getCommandName() + " " + option.longestName());
            }
        }
        assertThat(checked).as("options whose default is a service setting").hasSizeGreaterThan(5)
                .contains("replay --policy-name", "replay --policy-version");
    }

    @Test
    @DisplayName("The broker options' defaults are the embedded broker's settings in application.yml")
    void brokerDefaultsAreTheServicesDefaults() {
        Map<String, String> yaml = TestProperties.applicationYaml();
        assertThat(BrokerOptions.DEFAULT_ACCEPTOR).isEqualTo(yaml.get("claimguard.broker.acceptor-url"));
        assertThat(BrokerOptions.DEFAULT_DATA_DIRECTORY).isEqualTo(yaml.get("claimguard.broker.data-directory"));
        assertThat(BrokerOptions.DEFAULT_DATA_DIRECTORY + "/" + BrokerOptions.CREDENTIALS_FILE_NAME)
                .isEqualTo(yaml.get("claimguard.broker.credentials-file"));
    }
}
