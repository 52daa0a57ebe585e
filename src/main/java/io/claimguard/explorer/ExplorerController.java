package io.claimguard.explorer;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
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
    private final OverviewReader overview;
    private final int pageSize;

    ExplorerController(AuditReader audits, OverviewReader overview, ExplorerProperties explorer) {
        this.audits = audits;
        this.overview = overview;
        this.pageSize = explorer.pageSize();
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

    @GetMapping("/explorer/audits/{id}")
    String audit(@PathVariable long id, Model model) {
        model.addAttribute("audit", audits.audit(id).orElseThrow(() -> notFound("no audit row " + id)));
        return "explorer/audit";
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
        model.addAttribute("payload", Payload.of(deadLetter.payload()));
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

    private static java.util.Optional<String> optional(String value) {
        return java.util.Optional.ofNullable(blankToNull(value));
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
