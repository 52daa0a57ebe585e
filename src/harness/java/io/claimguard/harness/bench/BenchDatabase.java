package io.claimguard.harness.bench;

import io.claimguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.flywaydb.core.Flyway;

/**
 * A throwaway database on the local PostgreSQL for one phase of the benchmark. Every phase writes to a database
 * of its own on the same server, so that all of them have the same durability settings and none writes into an
 * index another phase has already grown; each is dropped when its phase is over, to free the disk.
 */
final class BenchDatabase implements AutoCloseable {

    private final TestDatabase database;

    private BenchDatabase(TestDatabase database) {
        this.database = database;
    }

    /** An empty database; the service migrates it itself when it starts. */
    static BenchDatabase empty() {
        return new BenchDatabase(TestDatabase.createSeparate());
    }

    /** A database with the service's schema: the same migrations, run the way the service runs them. */
    static BenchDatabase migrated() {
        BenchDatabase database = empty();
        // as spring.flyway.* in application.yml: schema claimguard, the migrations in db/migration
        Flyway.configure()
                .dataSource(database.jdbcUrl(), database.database.username(), database.database.password())
                .schemas("claimguard")
                .locations("filesystem:db/migration")
                .load()
                .migrate();
        return database;
    }

    TestDatabase database() {
        return database;
    }

    String name() {
        return database.databaseName();
    }

    String jdbcUrl() {
        return database.jdbcUrl(database.host(), database.port());
    }

    Connection connect() throws SQLException {
        return database.connect();
    }

    /** Rows of the audit tables, read in one snapshot. */
    record Rows(long audit, long claimChecks, long deadLetters) {
    }

    static Rows rows(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT"
                + " (SELECT count(*) FROM claimguard.verification_audit),"
                + " (SELECT count(*) FROM claimguard.claim_check),"
                + " (SELECT count(*) FROM claimguard.dead_letter)");
                ResultSet result = statement.executeQuery()) {
            result.next();
            return new Rows(result.getLong(1), result.getLong(2), result.getLong(3));
        }
    }

    /** Audit rows and dead letters only: what the drains poll every 100 ms (claim_check is the larger table). */
    static long[] auditAndDeadLetters(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT"
                + " (SELECT count(*) FROM claimguard.verification_audit), (SELECT count(*) FROM claimguard.dead_letter)");
                ResultSet result = statement.executeQuery()) {
            result.next();
            return new long[] {result.getLong(1), result.getLong(2)};
        }
    }

    static String serverVersion(Connection connection) throws SQLException {
        return connection.getMetaData().getDatabaseProductVersion();
    }

    @Override
    public void close() {
        database.drop();
    }
}
