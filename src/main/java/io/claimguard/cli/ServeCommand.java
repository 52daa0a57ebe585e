package io.claimguard.cli;

import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;
import sun.misc.Signal;

/**
 * Runs the service. Never executed through picocli: {@link ClaimGuardCli#main} starts Spring Boot before any parsing,
 * with the arguments as given, so that every Spring Boot option ({@code --claimguard.kafka.enabled=true}) keeps
 * working; this class gives the command its place in the help.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {
            "Run the service (the default command).",
            "Reads the inbox, the input queue and (if enabled) Kafka; audits and forwards every input. Every setting is a Spring Boot property, as --name=value, an environment variable (CLAIMGUARD_FILE_INBOX, SPRING_DATASOURCE_URL, ...) or in application.yml; see docs/operating.md, Configuration.",
            "Stops gracefully on SIGTERM: inputs in flight finish first, then it exits with 0."},
        footer = {"", "Example: claimguard serve --claimguard.file.inbox=/srv/inbox --spring.datasource.url=jdbc:postgresql://db:5432/claimguard"})
final class ServeCommand implements Runnable {

    @Unmatched
    private List<String> properties;

    /** True when the arguments ask for the service: none, {@code serve ...}, or Spring Boot options only. */
    static boolean isServe(String[] args) {
        if (args.length == 0) {
            return true;
        }
        if (args[0].equals("serve")) {
            return args.length == 1 || !ClaimGuardCli.isOwnOption(args[1]);
        }
        return args[0].startsWith("--") && !ClaimGuardCli.isOwnOption(args[0]);
    }

    /**
     * Makes a SIGTERM (docker stop, Kubernetes, systemd, an IDE's stop button, a caller of {@code mvn spring-boot:run})
     * end the service with exit code 0 once it has stopped gracefully. The stop itself is the JVM's own: its SIGTERM
     * handler too runs the shutdown hooks, and Spring's lets inputs in flight finish; only the JVM would then exit with
     * 143 (128 + SIGTERM), which {@code spring-boot:run} reports as a BUILD FAILURE, though a stop that was asked for
     * and done is a success. Where the platform has no SIGTERM, the JVM's handling stays.
     */
    static void exitWithSuccessOnSigterm() {
        try {
            Signal.handle(new Signal("TERM"), signal -> System.exit(ExitCodes.OK));
        } catch (IllegalArgumentException unsupported) {
            // no SIGTERM here, or it is reserved: the JVM's handling stays
        }
    }

    /** The arguments for Spring Boot: all but the command's name. */
    static String[] serviceArguments(String[] args) {
        return args.length > 0 && args[0].equals("serve") ? ClaimGuardCli.tail(args) : args;
    }

    @Override
    public void run() {
        throw new IllegalStateException("serve runs before the command line is parsed (ClaimGuardCli.main)");
    }
}
