package io.claimguard.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** V10 on a database that has dead letters already: the rows of before get their size, and none is truncated. */
class DeadLetterMigrationIT {

    @Test
    @DisplayName("Scenario: Dead letters recorded before V10 get their size and are not truncated")
    void oldRowsAreFilled() throws SQLException {
        TestDatabase database = TestDatabase.createSeparate();
        try {
            flyway(database, "8").migrate();
            try (Connection sql = database.connect()) {
                insertAsBefore(sql, "before-1.json", new byte[] {'{', 'x'});
                insertAsBefore(sql, "before-2.json", new byte[3 * 1024 * 1024]);
            }
            flyway(database, "latest").migrate();

            try (Connection sql = database.connect(); PreparedStatement rows = sql.prepareStatement("""
                    SELECT source_ref, payload_size, payload_truncated, octet_length(payload)
                    FROM claimguard.dead_letter ORDER BY id""");
                    ResultSet row = rows.executeQuery()) {
                List<String> found = new ArrayList<>();
                while (row.next()) {
                    found.add(row.getString(1) + " " + row.getLong(2) + " " + row.getBoolean(3) + " " + row.getLong(4));
                }
                assertThat(found).containsExactly("before-1.json 2 false 2", "before-2.json 3145728 false 3145728");
            }
            // a row must say truthfully whether it keeps the whole input
            try (Connection sql = database.connect()) {
                assertThatThrownBy(() -> insert(sql, "liar.json", new byte[10], 10, true))
                        .isInstanceOf(SQLException.class).hasMessageContaining("dead_letter_payload_size_check");
                assertThatThrownBy(() -> insert(sql, "liar.json", new byte[10], 20, false))
                        .isInstanceOf(SQLException.class).hasMessageContaining("dead_letter_payload_size_check");
                insert(sql, "cut.json", new byte[10], 20, true);
            }
        } finally {
            database.drop();
        }
    }

    private static Flyway flyway(TestDatabase database, String target) {
        return Flyway.configure().dataSource(database.dataSource()).schemas("claimguard")
                .locations("classpath:db/migration").target(target).load();
    }

    /** As the service wrote a dead letter up to V8: no size, no truncation. */
    private static void insertAsBefore(Connection sql, String sourceRef, byte[] payload) throws SQLException {
        try (PreparedStatement insert = sql.prepareStatement("""
                INSERT INTO claimguard.dead_letter (source, source_ref, received_at, reason_code, reason, payload,
                    payload_sha256)
                VALUES ('file', ?, now(), 'not_json', 'recorded before V10', ?, sha256(?))""")) {
            insert.setString(1, sourceRef);
            insert.setBytes(2, payload);
            insert.setBytes(3, payload);
            insert.executeUpdate();
        }
    }

    private static void insert(Connection sql, String sourceRef, byte[] payload, long size, boolean truncated)
            throws SQLException {
        try (PreparedStatement insert = sql.prepareStatement("""
                INSERT INTO claimguard.dead_letter (source, source_ref, received_at, reason_code, reason, payload,
                    payload_sha256, payload_size, payload_truncated)
                VALUES ('file', ?, now(), 'too_large', 'recorded after V10', ?, sha256(?), ?, ?)""")) {
            insert.setString(1, sourceRef);
            insert.setBytes(2, payload);
            insert.setBytes(3, payload);
            insert.setLong(4, size);
            insert.setBoolean(5, truncated);
            insert.executeUpdate();
        }
    }
}
