package io.claimguard.status;

import io.claimguard.domain.Verdict;
import io.claimguard.seal.ChainVerification;
import io.claimguard.status.Inbox.InboxBacklog;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The service's state in one look: recent inputs by effective verdict, downgrades and dead letters, the last audit,
 * the audit chain, and the backlog (inbox files, queue depths). {@code claimguard status} prints it, as text or as
 * JSON ({@link #json()}), and the actuator endpoint {@code claimguard} answers the same JSON.
 */
public record StatusReport(Instant generatedAt, Part<AuditFacts> audit, Part<InboxBacklog> inbox, Part<Queues> queues) {

    public StatusReport {
        generatedAt = generatedAt.truncatedTo(ChronoUnit.MILLIS);
    }

    /** Exit-worthy: the chain was checked and does not verify. */
    public boolean chainBroken() {
        return audit.available() && !audit.facts().chain().verified();
    }

    /** What the audit database says. */
    public record AuditFacts(Window lastHour, Window lastDay, Instant lastAuditAt, ChainState chain) {
    }

    /**
     * Inputs received in a window that ends now.
     *
     * @param inputs audited inputs (one audit row each)
     * @param byVerdict audited inputs by effective verdict, every verdict present
     * @param downgraded audited inputs whose verdict the guard made stricter
     * @param deadLetters inputs refused (dead_letter rows)
     */
    public record Window(long inputs, Map<Verdict, Long> byVerdict, long downgraded, long deadLetters) {
    }

    /**
     * The audit hash chain: its head link checked now, in constant time, and what the newest verify-chain run found.
     *
     * @param headLinkBreak what is wrong with the newest seal's link or row; null when it holds
     * @param headSeq the newest seal's seq; null when nothing is sealed yet
     * @param headHash its hash in hex; null when nothing is sealed yet
     * @param lastVerification the newest verify-chain run recorded; null when none was
     * @param sealsSinceVerification seals after the last one that run found intact (all seals when none)
     */
    public record ChainState(String headLinkBreak, long sealedRows, long unsealedRows, Long headSeq, String headHash,
            ChainVerification lastVerification, long sealsSinceVerification) {

        public boolean verified() {
            return firstBreak() == null;
        }

        /** The head link's break, else the one the last verification found; null when neither found one. */
        public String firstBreak() {
            if (headLinkBreak != null) {
                return headLinkBreak;
            }
            return lastVerification == null ? null : lastVerification.firstBreak();
        }
    }

    /**
     * The service's queues.
     *
     * @param broker where the depths were read: the broker's URL, or {@code embedded}
     */
    public record Queues(String broker, List<QueueDepth> depths) {
    }

    /** The JSON form; its field names are part of the interface (docs/interface.md, "Status"). */
    public Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("generated_at", generatedAt.toString());
        Map<String, Object> auditJson = new LinkedHashMap<>();
        audit.putInto(auditJson, facts -> {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("last_hour", windowJson(facts.lastHour()));
            fields.put("last_day", windowJson(facts.lastDay()));
            fields.put("last_audit_at", facts.lastAuditAt() == null ? null : facts.lastAuditAt().toString());
            fields.put("chain", chainJson(facts.chain()));
            return fields;
        });
        json.put("audit", auditJson);
        Map<String, Object> inboxJson = new LinkedHashMap<>();
        inbox.putInto(inboxJson, facts -> {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("path", facts.path());
            fields.put("files", facts.files());
            return fields;
        });
        json.put("inbox", inboxJson);
        Map<String, Object> queuesJson = new LinkedHashMap<>();
        queues.putInto(queuesJson, facts -> {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("broker", facts.broker());
            for (QueueDepth depth : facts.depths()) {
                fields.put(depth.role(), Map.of("name", depth.name(), "depth", depth.depth()));
            }
            return fields;
        });
        json.put("queues", queuesJson);
        return json;
    }

    private static Map<String, Object> windowJson(Window window) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("inputs", window.inputs());
        Map<String, Object> byVerdict = new LinkedHashMap<>();
        window.byVerdict().forEach((verdict, count) -> byVerdict.put(verdict.name(), count));
        json.put("by_verdict", byVerdict);
        json.put("downgraded", window.downgraded());
        json.put("dead_letters", window.deadLetters());
        return json;
    }

    private static Map<String, Object> chainJson(ChainState chain) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("check", "head_link");
        json.put("verified", chain.verified());
        json.put("first_break", chain.firstBreak());
        json.put("sealed_rows", chain.sealedRows());
        json.put("unsealed_rows", chain.unsealedRows());
        json.put("head_seq", chain.headSeq());
        json.put("head_hash", chain.headHash());
        json.put("last_verification", lastVerificationJson(chain));
        return json;
    }

    private static Map<String, Object> lastVerificationJson(ChainState chain) {
        ChainVerification last = chain.lastVerification();
        if (last == null) {
            return null;
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("verified_at", last.verifiedAt().toString());
        json.put("mode", last.mode());
        json.put("intact", last.intact());
        json.put("first_break", last.firstBreak());
        json.put("from_seq", last.fromSeq());
        json.put("through_seq", last.throughSeq());
        json.put("seals_verified", last.sealsVerified());
        json.put("checkpoint_size", last.checkpointSize());
        json.put("checkpoint_head_seq", last.checkpointHeadSeq());
        json.put("seals_since", chain.sealsSinceVerification());
        return json;
    }

    /** The text form, for a person. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add("ClaimGuard status at " + generatedAt);
        if (audit.available()) {
            AuditFacts facts = audit.facts();
            lines.add("inputs            last hour    last day");
            lines.add(row("audited", facts.lastHour().inputs(), facts.lastDay().inputs()));
            for (Verdict verdict : Verdict.values()) {
                lines.add(row("  " + verdict, facts.lastHour().byVerdict().get(verdict), facts.lastDay().byVerdict().get(verdict)));
            }
            lines.add(row("downgraded", facts.lastHour().downgraded(), facts.lastDay().downgraded()));
            lines.add(row("dead letters", facts.lastHour().deadLetters(), facts.lastDay().deadLetters()));
            lines.add("last audit: " + (facts.lastAuditAt() == null ? "none yet"
                    : facts.lastAuditAt() + " (" + age(Duration.between(facts.lastAuditAt(), generatedAt)) + " ago)"));
            lines.add("chain: " + chainText(facts.chain()));
        } else {
            lines.add("audit database: unavailable: " + audit.unavailable());
        }
        lines.add("inbox: " + inbox.describe(facts -> "%,d file(s) waiting in %s".formatted(facts.files(), facts.path())));
        lines.add("queues: " + queues.describe(facts -> "at " + facts.broker() + ": " + String.join(", ",
                facts.depths().stream().map(depth -> "%s %,d (%s)".formatted(depth.name(), depth.depth(),
                        depth.role().replace('_', ' '))).toList())));
        return lines;
    }

    private static String row(String label, long lastHour, long lastDay) {
        return "%-14s %12s %11s".formatted(label, "%,d".formatted(lastHour), "%,d".formatted(lastDay));
    }

    private static String chainText(ChainState chain) {
        String head = chain.headSeq() == null ? "nothing sealed yet"
                : "head seq %d hash %s..".formatted(chain.headSeq(), chain.headHash().substring(0, 12));
        String verdict;
        if (chain.headLinkBreak() != null) {
            verdict = "DOES NOT VERIFY (head link): " + chain.headLinkBreak();
        } else if (!chain.verified()) {
            verdict = "DOES NOT VERIFY (" + lastRun(chain.lastVerification()) + "): " + chain.firstBreak();
        } else {
            verdict = "head link verified, " + (chain.lastVerification() == null ? "verify-chain never recorded"
                    : lastRun(chain.lastVerification()) + " intact" + (chain.lastVerification().throughSeq() == null ? ""
                            : " through seal seq " + chain.lastVerification().throughSeq())
                            + ", %,d seal(s) since".formatted(chain.sealsSinceVerification()));
        }
        return "%,d rows sealed, %,d not yet sealed, %s, %s".formatted(chain.sealedRows(), chain.unsealedRows(), head, verdict);
    }

    private static String lastRun(ChainVerification last) {
        String from = last.checkpointSize() == null ? "" : " after the checkpoint of size " + last.checkpointSize();
        return "verify-chain " + last.mode() + from + " at " + last.verifiedAt();
    }

    private static String age(Duration age) {
        if (age.isNegative() || age.toSeconds() < 120) {
            return Math.max(0, age.toSeconds()) + " s";
        }
        return age.toMinutes() < 120 ? age.toMinutes() + " min" : age.toHours() + " h";
    }
}
