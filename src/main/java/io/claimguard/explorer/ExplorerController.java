package io.claimguard.explorer;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.security.Principal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The audit explorer's pages: GET only, every one read-only. Values reach the templates as they are stored and are
 * escaped there ({@code th:text}); times are UTC.
 */
@Controller
@ConditionalOnProperty(name = "claimguard.explorer.enabled", havingValue = "true")
class ExplorerController {

    private final AuditReader audits;
    private final AuditDocuments documents;
    private final OverviewReader overview;
    private final int pageSize;
    private final AuditPageProperties auditPage;
    private final SetAside setAside;
    private final AuditExport export;
    private final ReplayReader replays;

    ExplorerController(AuditReader audits, AuditDocuments documents, OverviewReader overview, ExplorerProperties explorer,
            AuditPageProperties auditPage, AuditExport export, ReplayReader replays, @Value("${claimguard.file.inbox}") String inbox,
            @Value("${claimguard.jms.dead-letter-queue}") String queue,
            @Value("${claimguard.kafka.dead-letter-topic}") String topic) {
        this.audits = audits;
        this.documents = documents;
        this.overview = overview;
        this.pageSize = explorer.pageSize();
        this.auditPage = auditPage;
        this.export = export;
        this.replays = replays;
        this.setAside = new SetAside(Path.of(inbox).resolve(".error").toString(), queue, topic);
    }

    /**
     * Where the intakes keep a set-aside input whole, for a dead letter whose row keeps only its first bytes.
     *
     * @param errorFolder the inbox's {@code .error/} folder (files)
     * @param deadLetterQueue the JMS dead-letter queue
     * @param deadLetterTopic the Kafka dead-letter topic
     */
    record SetAside(String errorFolder, String deadLetterQueue, String deadLetterTopic) {
    }

    @GetMapping(WebSecurity.LOGIN_PAGE)
    String login() {
        return "explorer/login";
    }

    @GetMapping("/explorer")
    String overview(@RequestParam(required = false) String period, Model model) {
        OverviewPeriod chosen = OverviewPeriod.of(period).orElseThrow(() -> new ResponseStatusException(
                HttpStatus.BAD_REQUEST, "period must be day, week or 30d"));
        model.addAttribute("overview", overview.overview(chosen));
        model.addAttribute("periods", OverviewPeriod.values());
        return "explorer/overview";
    }

    /** An audit by its id or request id: straight to it when there is one, else the list of those found. */
    @GetMapping("/explorer/find")
    String find(@RequestParam(name = "q", required = false) String term, Model model) {
        String q = blankToNull(term);
        List<AuditReader.AuditRow> found = q == null ? List.of() : audits.find(q.strip());
        if (found.size() == 1) {
            return "redirect:/explorer/audits/" + found.get(0).id();
        }
        model.addAttribute("q", q);
        model.addAttribute("found", found);
        return "explorer/find";
    }

    @GetMapping("/explorer/audits")
    String list(@RequestParam(required = false) String from, @RequestParam(required = false) String to,
            @RequestParam(required = false) String verdict, @RequestParam(required = false) String downgraded,
            @RequestParam(required = false) String reason, @RequestParam(required = false) String finding,
            @RequestParam(name = "has_findings", required = false) String hasFindings,
            @RequestParam(required = false) String source, @RequestParam(required = false) String text,
            @RequestParam(name = "before_at", required = false) String beforeAt,
            @RequestParam(name = "before_id", required = false) Long beforeId, Model model) {
        AuditListRequest request = new AuditListRequest(from, to, verdict, downgraded, reason, finding, hasFindings, source,
                text);
        List<String> problems = new ArrayList<>();
        AuditFilter filter = request.filter(keyset(beforeAt, beforeId, problems), problems);
        AuditReader.Page<AuditReader.AuditRow> page = audits.audits(filter, pageSize);
        model.addAttribute("page", page);
        model.addAttribute("problems", problems);
        model.addAttribute("filter", request);
        model.addAttribute("reasonCodes", Codes.GUARD_REASONS);
        model.addAttribute("findingCodes", Codes.FINDINGS);
        model.addAttribute("reasonsMatched", matched(request.reason(), filter.reasons()));
        model.addAttribute("findingsMatched", matched(request.finding(), filter.findings()));
        model.addAttribute("first", filter.before() == null);
        model.addAttribute("exportCsv", request.link("/explorer/export/audits.csv").encode().build().toUriString());
        model.addAttribute("exportJsonLines", request.link("/explorer/export/audits.jsonl").encode().build().toUriString());
        model.addAttribute("firstPage", request.link("/explorer/audits").encode().build().toUriString());
        model.addAttribute("nextPage", page.next() == null ? null : next(request.link("/explorer/audits"), page.next()));
        return "explorer/audits";
    }

    /** The list this filter makes, whole (up to its bound), as CSV: streamed, the filter at the top. */
    @GetMapping("/explorer/export/audits.csv")
    void exportCsv(@RequestParam Map<String, String> parameters, Principal operator, HttpServletResponse response)
            throws IOException {
        export(AuditListRequest.of(parameters), AuditExport.Format.CSV, operator, response);
    }

    /** The list this filter makes, whole (up to its bound), as JSON lines: the filter first, then a row a line. */
    @GetMapping("/explorer/export/audits.jsonl")
    void exportJsonLines(@RequestParam Map<String, String> parameters, Principal operator, HttpServletResponse response)
            throws IOException {
        export(AuditListRequest.of(parameters), AuditExport.Format.JSON_LINES, operator, response);
    }

    private void export(AuditListRequest request, AuditExport.Format format, Principal operator,
            HttpServletResponse response) throws IOException {
        List<String> problems = new ArrayList<>();
        AuditFilter filter = request.filter(null, problems);
        if (!problems.isEmpty()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, String.join("; ", problems));
        }
        response.setContentType(format.contentType);
        response.setHeader("Content-Disposition", "attachment; filename=\"" + export.fileName(format, Instant.now()) + "\"");
        export.write(request, filter, format, operator.getName(), response.getOutputStream());
    }

    /** The codes a typed prefix stands for, when they are more than the text itself; else null. */
    private static List<String> matched(String typed, List<String> codes) {
        return codes == null || codes.equals(List.of(typed)) ? null : codes;
    }

    /**
     * An audit: its row and reasons, one page of its claim checks and one of its findings (from the ordinals asked
     * for), its documents when they are small and links to them always.
     */
    @GetMapping("/explorer/audits/{id}")
    String audit(@PathVariable long id, @RequestParam(name = "claims_from", required = false) Integer claimsFrom,
            @RequestParam(name = "findings_from", required = false) Integer findingsFrom,
            @RequestParam(name = "verify_seal", required = false) String verifySeal, Model model) {
        int claims = claimsFrom == null ? 0 : Math.max(0, claimsFrom);
        int findings = findingsFrom == null ? 0 : Math.max(0, findingsFrom);
        AuditReader.AuditDetail audit = audits.audit(id, claims, findings, auditPage.rows(), auditPage.inlineJson().toBytes(),
                "true".equals(verifySeal)).orElseThrow(() -> notFound("no audit row " + id));
        model.addAttribute("audit", audit);
        model.addAttribute("claimsPager", Pager.of(audit.claimChecks(), auditPage.rows(),
                from -> auditLink(id, from, findings, false, "claims")));
        model.addAttribute("findingsPager", Pager.of(audit.findings(), auditPage.rows(),
                from -> auditLink(id, claims, from, false, "findings")));
        model.addAttribute("claimsFrom", claims);
        model.addAttribute("findingsFrom", findings);
        model.addAttribute("verifySeal", auditLink(id, claims, findings, true, "seal"));
        return "explorer/audit";
    }

    /** The envelope as stored, pretty-printed, streamed: never part of the audit page when it is large. */
    @GetMapping("/explorer/audits/{id}/envelope.json")
    void envelope(@PathVariable long id, HttpServletResponse response) throws IOException {
        document(id, AuditDocuments.Document.ENVELOPE, response);
    }

    /** The effective result as forwarded, pretty-printed, streamed. */
    @GetMapping("/explorer/audits/{id}/effective-result.json")
    void effectiveResult(@PathVariable long id, HttpServletResponse response) throws IOException {
        document(id, AuditDocuments.Document.EFFECTIVE_RESULT, response);
    }

    private void document(long id, AuditDocuments.Document document, HttpServletResponse response) throws IOException {
        if (!documents.exists(id)) {
            throw notFound("no audit row " + id);
        }
        response.setContentType("application/json;charset=UTF-8");
        response.setHeader("Content-Disposition", "inline; filename=\"" + document.fileName(id) + "\"");
        documents.write(id, document, response.getOutputStream());
    }

    /**
     * The links of a paged part of an audit (its claim checks, its findings): first, previous, next and last page,
     * each null when there is none, and what is shown, e.g. {@code #100 to #199 of 20000}.
     */
    record Pager(String first, String previous, String next, String last, String shown) {

        static Pager of(AuditReader.Slice<?> slice, int rows, IntFunction<String> link) {
            long lastFrom = slice.total() == 0 ? 0 : (slice.total() - 1) / rows * rows;
            boolean atStart = slice.from() == 0;
            String shown = slice.rows().isEmpty()
                    ? "none from #" + slice.from() + " of " + slice.total()
                    : "#" + slice.from() + " to #" + (slice.from() + slice.rows().size() - 1) + " of " + slice.total();
            return new Pager(atStart ? null : link.apply(0), atStart ? null : link.apply(Math.max(0, slice.from() - rows)),
                    slice.next() == null ? null : link.apply(slice.next()),
                    slice.next() == null ? null : link.apply((int) lastFrom), shown);
        }

        public boolean needed() {
            return first != null || next != null;
        }
    }

    /** An audit's page from these ordinals on, verifying its seal or not, at a part of it. */
    private static String auditLink(long id, int claimsFrom, int findingsFrom, boolean verifySeal, String fragment) {
        return UriComponentsBuilder.fromPath("/explorer/audits/{id}")
                .queryParamIfPresent("claims_from", claimsFrom == 0 ? Optional.empty() : Optional.of(claimsFrom))
                .queryParamIfPresent("findings_from", findingsFrom == 0 ? Optional.empty() : Optional.of(findingsFrom))
                .queryParamIfPresent("verify_seal", verifySeal ? Optional.of("true") : Optional.empty())
                .fragment(fragment).buildAndExpand(id).encode().toUriString();
    }

    @GetMapping("/explorer/dead-letters")
    String deadLetters(@RequestParam(required = false) String reason, @RequestParam(required = false) String source,
            @RequestParam(name = "before_at", required = false) String beforeAt,
            @RequestParam(name = "before_id", required = false) Long beforeId, Model model) {
        List<String> problems = new ArrayList<>();
        AuditReader.Page<AuditReader.DeadLetterRow> page = audits.deadLetters(blankToNull(reason), blankToNull(source),
                keyset(beforeAt, beforeId, problems), pageSize);
        model.addAttribute("page", page);
        model.addAttribute("problems", problems);
        model.addAttribute("reason", blank(reason));
        model.addAttribute("source", blank(source));
        model.addAttribute("nextPage", page.next() == null ? null : next(UriComponentsBuilder.fromPath("/explorer/dead-letters")
                .queryParamIfPresent("reason", optional(reason)).queryParamIfPresent("source", optional(source)), page.next()));
        return "explorer/dead-letters";
    }

    @GetMapping("/explorer/dead-letters/{id}")
    String deadLetter(@PathVariable long id, Model model) {
        AuditReader.DeadLetterDetail deadLetter = audits.deadLetter(id).orElseThrow(() -> notFound("no dead letter " + id));
        model.addAttribute("deadLetter", deadLetter);
        model.addAttribute("redriven", audits.redrivenFrom(id));
        model.addAttribute("payload", Payload.of(deadLetter.firstBytes(), deadLetter.row().payloadSize()));
        model.addAttribute("setAside", setAside);
        return "explorer/dead-letter";
    }

    @GetMapping("/explorer/replays")
    String replays(@RequestParam(name = "before_id", required = false) Long beforeId, Model model) {
        ReplayReader.Page<ReplayReader.Run> page = replays.runs(beforeId, pageSize);
        model.addAttribute("page", page);
        model.addAttribute("nextPage", page.next() == null ? null : UriComponentsBuilder.fromPath("/explorer/replays")
                .queryParam("before_id", page.next()).build().toUriString());
        return "explorer/replays";
    }

    /** One replay run, and the audits whose verdict it would change beside their stored verdict. */
    @GetMapping("/explorer/replays/{id}")
    String replay(@PathVariable long id, @RequestParam(name = "after_audit", required = false) Long afterAudit,
            Model model) {
        ReplayReader.Run run = replays.run(id).orElseThrow(() -> notFound("no replay run " + id));
        ReplayReader.Page<ReplayReader.Changed> page = replays.changed(id, afterAudit == null ? 0 : afterAudit, pageSize);
        model.addAttribute("run", run);
        model.addAttribute("page", page);
        model.addAttribute("nextPage", page.next() == null ? null : UriComponentsBuilder.fromPath("/explorer/replays/{id}")
                .queryParam("after_audit", page.next()).buildAndExpand(id).toUriString());
        return "explorer/replay";
    }

    /** Every audit and dead letter of one request id, in time order, each linked to where it came from and went. */
    @GetMapping("/explorer/story")
    String story(@RequestParam(name = "request_id", required = false) String requestId, Model model) {
        String id = blankToNull(requestId);
        if (id == null) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "a story needs a request_id");
        }
        model.addAttribute("story", audits.story(id));
        return "explorer/story";
    }

    private static String next(UriComponentsBuilder base, AuditFilter.Keyset next) {
        return base.queryParam("before_at", next.receivedAt().toString()).queryParam("before_id", next.id())
                .encode().build().toUriString();
    }

    /** A time as the form's datetime-local field sends it (UTC) or as an ISO instant; null when absent or unreadable. */
    static Instant time(String value, String name, List<String> problems) {
        String text = blankToNull(value);
        if (text == null) {
            return null;
        }
        try {
            return text.endsWith("Z") ? Instant.parse(text) : LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            problems.add(name + " is not a time like 2026-12-04T09:30 (UTC): ignored");
            return null;
        }
    }

    private static AuditFilter.Keyset keyset(String beforeAt, Long beforeId, List<String> problems) {
        Instant at = time(beforeAt, "before_at", problems);
        return at == null || beforeId == null ? null : new AuditFilter.Keyset(at, beforeId);
    }

    private static Optional<String> optional(String value) {
        return Optional.ofNullable(blankToNull(value));
    }

    static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    private static String blank(String value) {
        return value == null ? "" : value;
    }

    private static ResponseStatusException notFound(String message) {
        return new ResponseStatusException(HttpStatus.NOT_FOUND, message);
    }
}
