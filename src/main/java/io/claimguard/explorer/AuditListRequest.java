package io.claimguard.explorer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * A list of audits as its URL asks for it: every filter a query parameter, so that a filtered list is a link that an
 * incident ticket can keep. Reads the parameters as typed (what the form shows again), the filter they make, and
 * what could not be read (said on the page, that part ignored).
 *
 * @param from {@code from}: a time, UTC
 * @param to {@code to}: a time, UTC
 * @param verdict {@code verdict}: PASS, LOW_CONFID or REJECT
 * @param downgraded {@code downgraded}: true or false
 * @param reason {@code reason}: a guard reason code or the start of some ({@link Codes})
 * @param finding {@code finding}: a finding code or the start of some
 * @param hasFindings {@code has_findings}: true (some finding) or false (none)
 * @param source {@code source}: jms, file, kafka
 * @param text {@code text}: words every one of which a claim's text, or the rationale or a tool name, holds
 */
record AuditListRequest(String from, String to, String verdict, String downgraded, String reason, String finding,
        String hasFindings, String source, String text) {

    static final Set<String> VERDICTS = Set.of("PASS", "LOW_CONFID", "REJECT");

    AuditListRequest {
        from = blank(from);
        to = blank(to);
        verdict = blank(verdict);
        downgraded = blank(downgraded);
        reason = blank(reason);
        finding = blank(finding);
        hasFindings = blank(hasFindings);
        source = blank(source);
        text = blank(text);
    }

    /** The list a URL's query asks for, by the parameters' names. */
    static AuditListRequest of(Map<String, String> query) {
        return new AuditListRequest(query.get("from"), query.get("to"), query.get("verdict"), query.get("downgraded"),
                query.get("reason"), query.get("finding"), query.get("has_findings"), query.get("source"),
                query.get("text"));
    }

    /** The filter these parameters make (without a keyset), the problems of those that could not be read added. */
    AuditFilter filter(AuditFilter.Keyset before, List<String> problems) {
        String verdictValue = verdict.isEmpty() ? null : verdict;
        if (verdictValue != null && !VERDICTS.contains(verdictValue)) {
            problems.add("verdict must be PASS, LOW_CONFID or REJECT");
            verdictValue = null;
        }
        return new AuditFilter(ExplorerController.time(from, "from", problems), ExplorerController.time(to, "to", problems),
                verdictValue, bool(downgraded, "downgraded", problems),
                Codes.matching(ExplorerController.blankToNull(reason), Codes.GUARD_REASONS),
                Codes.matching(ExplorerController.blankToNull(finding), Codes.FINDINGS),
                bool(hasFindings, "has_findings", problems), ExplorerController.blankToNull(source), before,
                ExplorerController.blankToNull(text));
    }

    /** The parameters that are set, by name, in the order of the form. */
    Map<String, String> parameters() {
        Map<String, String> set = new LinkedHashMap<>();
        put(set, "from", from);
        put(set, "to", to);
        put(set, "verdict", verdict);
        put(set, "downgraded", downgraded);
        put(set, "reason", reason);
        put(set, "finding", finding);
        put(set, "has_findings", hasFindings);
        put(set, "source", source);
        put(set, "text", text);
        return set;
    }

    /** This list (or its export) at this path, every parameter that is set in its query, encoded. */
    UriComponentsBuilder link(String path) {
        UriComponentsBuilder link = UriComponentsBuilder.fromPath(path);
        parameters().forEach(link::queryParam);
        return link;
    }

    /** The filter as a person reads it, e.g. {@code verdict=REJECT reason=gatekeeper}; {@code (none)} when unfiltered. */
    String describe() {
        List<String> parts = new ArrayList<>();
        parameters().forEach((name, value) -> parts.add(name + "=" + value));
        return parts.isEmpty() ? "(none)" : String.join(" ", parts);
    }

    private static Boolean bool(String value, String name, List<String> problems) {
        return switch (value) {
            case "" -> null;
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> {
                problems.add(name + " must be true or false: ignored");
                yield null;
            }
        };
    }

    private static void put(Map<String, String> set, String name, String value) {
        if (!value.isEmpty()) {
            set.put(name, value);
        }
    }

    private static String blank(String value) {
        return value == null || value.isBlank() ? "" : value.strip();
    }
}
