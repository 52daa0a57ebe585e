package io.claimguard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ToolFailureTest {

    @Test
    @DisplayName("A failure reads as one line: each cause's first line once, no class names")
    void oneLine() {
        SQLException refused = new SQLException("Connection to 127.0.0.1:1 refused.\nCheck the host", "08001");
        ToolFailure failure = new ToolFailure("cannot reach the audit database at jdbc:postgresql://127.0.0.1:1/x as a",
                refused);

        assertThat(ToolFailure.describe(failure)).isEqualTo(
                "cannot reach the audit database at jdbc:postgresql://127.0.0.1:1/x as a: Connection to 127.0.0.1:1 refused.");
    }

    @Test
    @DisplayName("A database without the audit tables is named as such")
    void missingTables() {
        SQLException missing = new SQLException("ERROR: relation \"claimguard.verification_audit\" does not exist\n  Position: 15",
                "42P01");

        assertThat(ToolFailure.describe(missing))
                .startsWith("ERROR: relation \"claimguard.verification_audit\" does not exist (the database has no ClaimGuard tables")
                .contains("has the service started on it once?")
                .doesNotContain("Position");
    }
}
