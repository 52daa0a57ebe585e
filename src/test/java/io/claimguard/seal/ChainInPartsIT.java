package io.claimguard.seal;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.claimguard.testkit.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A chain walked in parts side by side (each over its own connection in one snapshot) reports what the walk in one part
 * reports: intact with the same head, or the same first break, whether it lies inside a part or on the link between two.
 * Its rows have claim checks and findings, so that the sealer's and the verifier's three streams are both exercised.
 */
class ChainInPartsIT {

    private static final int ROWS = 60;

    private TestDatabase database;

    @BeforeEach
    void sealRowsWithClaimsAndFindings() throws SQLException {
        database = TestDatabase.createSeparate();
        Flyway.configure().dataSource(database.dataSource()).schemas("claimguard").locations("classpath:db/migration")
                .load().migrate();
        try (Connection owner = database.connect(); Statement sql = owner.createStatement()) {
            sql.execute("""
                    INSERT INTO claimguard.verification_audit (request_id, source, source_ref, received_at, model_verdict,
                        effective_verdict, downgraded, guard_reasons, projection_mode, audit, input_sha256, policy)
                    SELECT 'parts-' || g, 'file', 'parts-' || g, now() - g * interval '1 hour', 'PASS', 'PASS', false,
                           ARRAY[]::text[], 'claim_checks', jsonb_build_object('n', g, 'text', 'a "quoted" value ' || g),
                           sha256(('parts-' || g)::bytea), CASE WHEN g %% 2 = 0 THEN 'policy-1' END
                    FROM generate_series(1, %d) AS g""".formatted(ROWS));
            sql.execute("""
                    INSERT INTO claimguard.claim_check (audit_id, ordinal, claim_id, claim_text, claim_type, verification,
                        legacy_verification, is_critical, detail, evidence_refs, audited_at)
                    SELECT a.id, o, 'claim-' || o, 'claim {text} ' || a.id || '/' || o, 'symptom', 'direct_observation',
                           'direct_evidence', o = 0, CASE WHEN o = 1 THEN NULL ELSE 'detail' END,
                           '[{"trace_ref": "trace-1"}]', a.audited_at
                    FROM claimguard.verification_audit AS a CROSS JOIN generate_series(0, a.id % 4) AS o""");
            sql.execute("""
                    INSERT INTO claimguard.finding (audit_id, ordinal, claim_ordinal, code, detail, audited_at)
                    SELECT a.id, o, o, 'evidence.unknown_invocation', 'detail ' || o, a.audited_at
                    FROM claimguard.verification_audit AS a CROSS JOIN generate_series(0, a.id % 3 - 1) AS o""");
        }
        try (HikariDataSource writer = database.poolActingAs("claimguard_writer", 1)) {
            assertThat(new AuditSealer(writer, 7, Duration.ofMinutes(10)).sealAllRows()).isEqualTo(ROWS);
        }
    }

    @AfterEach
    void drop() {
        database.drop();
    }

    @Test
    @DisplayName("Scenario: A chain verified in parts reports what one walk reports")
    void aChainVerifiedInPartsReportsWhatOneWalkReports() throws SQLException {
        try (Connection connection = database.connect()) {
            ChainReport whole = AuditChainVerifier.verify(connection);
            ChainReport inParts = AuditChainVerifier.verify(connection, database::connect, 1);

            assertThat(whole.intact()).as(whole.lines().toString()).isTrue();
            assertThat(whole.verifiedSeals()).isEqualTo(ROWS);
            assertThat(inParts).isEqualTo(whole);
            // after a trusted seal the children are read within the later seals' audit ids
            long[] seqs = seqs();
            ChainReport after = AuditChainVerifier.verifyAfter(connection, seqs[9], hashOf(seqs[9]), "seal ten");
            assertThat(after.intact()).as(after.lines().toString()).isTrue();
            assertThat(after.verifiedSeals()).isEqualTo(ROWS - 10);
            assertThat(after.headHash()).isEqualTo(whole.headHash());
        }
        theFirstAlteredRowInSeqOrderIsNamedWhicheverPartItIsIn();
    }

    /** Part of the scenario: run after the intact walk, on the same chain. */
    private void theFirstAlteredRowInSeqOrderIsNamedWhicheverPartItIsIn() throws SQLException {
        long[] seqs = seqs();
        // one row near the end (the last part) and one in the first part: the first in seq order is named
        alterClaimOfSeal(seqs[ROWS - 3]);
        alterClaimOfSeal(seqs[5]);
        try (Connection connection = database.connect()) {
            ChainReport whole = AuditChainVerifier.verify(connection);
            ChainReport inParts = AuditChainVerifier.verify(connection, database::connect, 1);

            assertThat(whole.intact()).isFalse();
            assertThat(whole.verifiedSeals()).isEqualTo(5);
            assertThat(inParts).isEqualTo(whole);
        }
    }

    @Test
    void aSealRemovedAtTheEndOfAPartBreaksTheLinkToTheNextPart() throws SQLException {
        long[] seqs = seqs();
        int parts = Math.max(2, AuditChainVerifier.parts());
        // the last seal of the first part: its successor, the next part's first, no longer links to the seal before it
        long lastOfFirstPart = seqs[0] - 1 + (seqs[ROWS - 1] - seqs[0] + 1) / parts;
        try (Connection owner = database.connect(); PreparedStatement delete = owner.prepareStatement(
                "DELETE FROM claimguard.audit_seal WHERE seq = ?")) {
            delete.setLong(1, lastOfFirstPart);
            assertThat(delete.executeUpdate()).isEqualTo(1);
        }
        try (Connection connection = database.connect()) {
            ChainReport whole = AuditChainVerifier.verify(connection);
            ChainReport inParts = AuditChainVerifier.verify(connection, database::connect, 1);

            assertThat(whole.firstBreak()).isEqualTo("seal seq %d: previous_hash does not match seal %d"
                    .formatted(lastOfFirstPart + 1, lastOfFirstPart - 1));
            assertThat(inParts).isEqualTo(whole);
        }
    }

    private void alterClaimOfSeal(long seq) throws SQLException {
        try (Connection owner = database.connect(); PreparedStatement update = owner.prepareStatement("""
                UPDATE claimguard.claim_check SET claim_text = claim_text || ' (altered)'
                WHERE ordinal = 0 AND audit_id = (SELECT audit_id FROM claimguard.audit_seal WHERE seq = ?)""")) {
            update.setLong(1, seq);
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
    }

    private byte[] hashOf(long seq) throws SQLException {
        try (Connection connection = database.connect(); PreparedStatement query = connection.prepareStatement(
                "SELECT hash FROM claimguard.audit_seal WHERE seq = ?")) {
            query.setLong(1, seq);
            try (ResultSet rs = query.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getBytes(1);
            }
        }
    }

    private long[] seqs() throws SQLException {
        long[] seqs = new long[ROWS];
        try (Connection connection = database.connect(); Statement query = connection.createStatement();
                ResultSet rs = query.executeQuery("SELECT seq FROM claimguard.audit_seal ORDER BY seq")) {
            for (int i = 0; i < ROWS; i++) {
                assertThat(rs.next()).isTrue();
                seqs[i] = rs.getLong(1);
            }
        }
        return seqs;
    }
}
