package io.claimguard.explorer;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * How much one audit's page shows at once ({@code claimguard.explorer.audit-page.*}), so that an audit of tens of
 * thousands of claim checks opens as fast as a small one.
 *
 * @param rows claim checks, and findings, on one page of an audit; the rest are a link away, by ordinal
 * @param inlineJson the effective result and the envelope are shown on the audit page when, pretty-printed, they are no
 *     larger than this; a larger one is only a link to the document itself, streamed
 */
@ConfigurationProperties("claimguard.explorer.audit-page")
public record AuditPageProperties(int rows, DataSize inlineJson) {

    public AuditPageProperties {
        rows = rows <= 0 ? 100 : Math.min(rows, 1000);
        inlineJson = inlineJson == null || inlineJson.toBytes() < 0 ? DataSize.ofKilobytes(64) : inlineJson;
    }
}
