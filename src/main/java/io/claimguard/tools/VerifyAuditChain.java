package io.claimguard.tools;

import io.claimguard.seal.AuditChainVerifier;
import io.claimguard.seal.ChainReport;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;

/**
 * Checks the audit hash chain and names the first row that was altered or removed:
 * {@code ./mvnw -q compile exec:java -Dexec.mainClass=io.claimguard.tools.VerifyAuditChain -Dexec.args="--url URL"}.
 *
 * <p>Options: {@code --url JDBC-URL} (default {@code jdbc:postgresql://localhost:5432/postgres}), {@code --user}
 * and {@code --password} (default {@code postgres}); any login that can read schema claimguard will do. Exits 0
 * when the chain is intact, 1 when it is broken, 2 when it could not be checked.
 */
public final class VerifyAuditChain {

    private static final List<String> OPTIONS = List.of("--url", "--user", "--password");
    private static final String USAGE = "usage: VerifyAuditChain [--url JDBC-URL] [--user USER] [--password PASSWORD]";

    private VerifyAuditChain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command; returns its exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        String url = "jdbc:postgresql://localhost:5432/postgres";
        String user = "postgres";
        String password = "postgres";
        for (int i = 0; i < args.length; i += 2) {
            String option = args[i];
            if (!OPTIONS.contains(option)) {
                err.println("unknown argument " + option + "; " + USAGE);
                return 2;
            }
            if (i + 1 >= args.length) {
                err.println(option + " needs a value; " + USAGE);
                return 2;
            }
            String value = args[i + 1];
            switch (option) {
                case "--url" -> url = value;
                case "--user" -> user = value;
                default -> password = value;
            }
        }
        ChainReport report;
        try (Connection connection = DriverManager.getConnection(url, user, password)) {
            report = AuditChainVerifier.verify(connection);
        } catch (SQLException e) {
            err.println("cannot check the audit chain at " + url + " as " + user + ": " + e.getMessage());
            return 2;
        }
        report.lines().forEach(out::println);
        return report.intact() ? 0 : 1;
    }
}
