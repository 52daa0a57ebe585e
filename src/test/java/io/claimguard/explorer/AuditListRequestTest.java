package io.claimguard.explorer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A list's URL read into a filter and written back into links; codes by their start; CSV values kept as text. */
class AuditListRequestTest {

    @Test
    void aPrefixStandsForTheCodesItStartsAndForItself() {
        assertThat(Codes.matching("gatekeeper", Codes.GUARD_REASONS)).containsExactly("gatekeeper.fail",
                "gatekeeper.invocation_ref", "gatekeeper.missing", "gatekeeper");
        assertThat(Codes.matching("evidence.tool_mismatch", Codes.FINDINGS)).containsExactly("evidence.tool_mismatch");
        assertThat(Codes.matching("written.by.an.earlier.version", Codes.GUARD_REASONS))
                .containsExactly("written.by.an.earlier.version");
        assertThat(Codes.GUARD_REASONS).contains("claim_checks.unknown_verification", "evidence.tool_mismatch");
        assertThat(Codes.matching(null, Codes.FINDINGS)).isNull();
    }

    @Test
    void theFilterComesFromTheQueryAndGoesBackIntoLinks() {
        AuditListRequest request = AuditListRequest.of(Map.of("verdict", "PASS", "finding", "evidence.",
                "has_findings", "true", "reason", " ", "source", "a&b=c"));
        List<String> problems = new ArrayList<>();
        AuditFilter filter = request.filter(null, problems);

        assertThat(problems).isEmpty();
        assertThat(filter.verdict()).isEqualTo("PASS");
        assertThat(filter.reasons()).isNull();
        assertThat(filter.findings()).contains("evidence.tool_mismatch", "evidence.");
        assertThat(filter.hasFindings()).isTrue();
        assertThat(request.link("/explorer/audits").encode().build().toUriString())
                .isEqualTo("/explorer/audits?verdict=PASS&finding=evidence.&has_findings=true&source=a%26b%3Dc");
        assertThat(request.describe()).isEqualTo("verdict=PASS finding=evidence. has_findings=true source=a&b=c");
        assertThat(AuditListRequest.of(Map.of()).describe()).isEqualTo("(none)");
    }

    @Test
    void whatCannotBeReadIsSaidAndIgnored() {
        List<String> problems = new ArrayList<>();
        AuditFilter filter = AuditListRequest.of(Map.of("verdict", "MAYBE", "has_findings", "yes", "from", "today"))
                .filter(null, problems);

        assertThat(filter.verdict()).isNull();
        assertThat(filter.hasFindings()).isNull();
        assertThat(filter.from()).isNull();
        assertThat(problems).hasSize(3);
    }

    @Test
    void aCsvValueIsQuotedWhenItMustBeAndNeverStartsAFormula() {
        assertThat(AuditExport.csv("plain")).isEqualTo("plain");
        assertThat(AuditExport.csv("a,b")).isEqualTo("\"a,b\"");
        assertThat(AuditExport.csv("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(AuditExport.csv("line\nbreak")).isEqualTo("\"line\nbreak\"");
        assertThat(AuditExport.csv("=HYPERLINK(\"x\")")).isEqualTo("\"'=HYPERLINK(\"\"x\"\")\"");
        assertThat(AuditExport.csv("@SUM(A1)")).isEqualTo("'@SUM(A1)");
        assertThat(AuditExport.csv(null)).isEmpty();
    }
}
