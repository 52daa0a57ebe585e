package io.claimguard.explorer;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.Supplier;
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

    static final Set<String> VERDICTS = Set.of("PASS", "LOW_CONFID", "REJECT");

    private final AuditReader audits;
    private final AuditDocuments documents;
    private final OverviewReader overview;
    private final int pageSize;
    private final AuditPageProperties auditPage;
    private final SetAside setAside;

    ExplorerController(AuditReader audits, AuditDocuments documents, OverviewReader overview, ExplorerProperties explorer,
            AuditPageProperties auditPage, @Value("${claimguard.file.inbox}") String inbox,
            @Value("${claimguard.jms.dead-letter-queue}") String queue,
            @Value("${claimguard.kafka.dead-letter-topic}") String topic) {
        this.audits = audits;
        this.documents = documents;
        this.overview = overview;
        this.pageSize = explorer.pageSize();
        this.auditPage = auditPage;
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
    String overview(Model model) {
        model.addAttribute("charts", overview.charts());
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
            @RequestParam(required = false) String reason, @RequestParam(required = false) String source,
            @RequestParam(name = "before_at", required = false) String beforeAt,
            @RequestParam(name = "before_id", required = false) Long beforeId, Model model) {
        List<String> problems = new ArrayList<>();
        String verdictValue = blankToNull(verdict);
        if (verdictValue != null && !VERDICTS.contains(verdictValue)) {
            problems.add("verdict must be PASS, LOW_CONFID or REJECT");
            verdictValue = null;
        }
        Boolean downgradedValue = switch (downgraded == null ? "" : downgraded) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> null;
        };
        AuditFilter filter = new AuditFilter(time(from, "from", problems), time(to, "to", problems), verdictValue,
                downgradedValue, blankToNull(reason), blankToNull(source), keyset(beforeAt, beforeId, problems));
        AuditReader.Page<AuditReader.AuditRow> page = audits.audits(filter, pageSize);
        model.addAttribute("page", page);
        model.addAttribute("problems", problems);
        model.addAttribute("filter", new FilterForm(blank(from), blank(to), blank(verdictValue),
                downgradedValue == null ? "" : downgradedValue.toString(), blank(reason), blank(source)));
        model.addAttribute("first", filter.before() == null);
        String downgradedText = downgradedValue == null ? null : downgradedValue.toString();
        String verdictText = verdictValue;
        Supplier<UriComponentsBuilder> sameFilter = () -> UriComponentsBuilder.fromPath("/explorer/audits")
                .queryParamIfPresent("from", optional(from)).queryParamIfPresent("to", optional(to))
                .queryParamIfPresent("verdict", optional(verdictText))
                .queryParamIfPresent("downgraded", optional(downgradedText))
                .queryParamIfPresent("reason", optional(reason)).queryParamIfPresent("source", optional(source));
        model.addAttribute("firstPage", sameFilter.get().encode().build().toUriString());
        model.addAttribute("nextPage", page.next() == null ? null : next(sameFilter.get(), page.next()));
        return "explorer/audits";
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
        model.addAttribute("payload", Payload.of(deadLetter.firstBytes(), deadLetter.row().payloadSize()));
        model.addAttribute("setAside", setAside);
        return "explorer/dead-letter";
    }

    /** The values the filter form shows again, as typed. */
    record FilterForm(String from, String to, String verdict, String downgraded, String reason, String source) {
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
