package io.claimguard.cli;

import io.claimguard.broker.BrokerRole;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** Which messages a queue tool handles: {@code --selector}; and the check of its {@code --max}. */
public final class QueueOptions {

    @Option(names = "--selector", paramLabel = "SELECTOR",
            description = "only messages matching this JMS selector, e.g. \"ClaimGuardRequestId = 'r-1'\" or \"ClaimGuardVerdict = 'REJECT'\"")
    String selector;

    /** A {@code --max} value, checked while parsing: a usage error (exit 2) when below 1. */
    static int max(CommandSpec spec, int max) {
        if (max < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "Invalid value for option '--max': must be at least 1, not " + max);
        }
        return max;
    }

    /**
     * The failure of a JMS call that used the selector: a usage error when the selector is not valid, else the
     * broker's failure (a refusal names the login and what was refused).
     */
    ToolFailure failure(BrokerOptions broker, BrokerRole role, String doing, JMSException e) {
        if (e instanceof InvalidSelectorException) {
            return new ToolFailure("invalid --selector \"" + selector + "\"", e, ExitCodes.USAGE);
        }
        return broker.failure(role, doing, e);
    }
}
