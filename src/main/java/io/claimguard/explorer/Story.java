package io.claimguard.explorer;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The whole story of an input, in time order: every audit of its request id (each redelivery with other bytes is one
 * more) and every dead letter on the re-drive chains they belong to (the dead letter an audit was re-driven from, the
 * one that was re-driven, dead-lettered again, and so on), each linked to where it came from and what came of it.
 *
 * @param requestId the request id the story is of
 * @param events audits and dead letters by received_at, then id
 * @param cut whether there were more than the page shows
 */
record Story(String requestId, List<Event> events, boolean cut) {

    /** An audit and where it was re-driven from; null when it was not. */
    record StoryAudit(AuditReader.AuditRow row, Long redriveOf) {
    }

    /** A dead letter and the dead letter it was re-driven from; null when it was not. */
    record StoryDeadLetter(AuditReader.DeadLetterRow row, Long redriveOf) {
    }

    /**
     * One audit or one dead letter (the other null), with what its re-drive made: the audits and the dead letters of
     * this story whose {@code redrive_of} is this dead letter.
     *
     * @param attempt for an audit, which audit of the request id it is (1 for the first); 0 for a dead letter
     */
    record Event(Instant at, StoryAudit audit, StoryDeadLetter deadLetter, int attempt, List<Long> redrivenIntoAudits,
            List<Long> redrivenIntoDeadLetters) {

        public boolean forAudit() {
            return audit != null;
        }
    }

    static Story of(String requestId, List<StoryAudit> audits, List<StoryDeadLetter> deadLetters, boolean cut) {
        List<Event> events = new ArrayList<>();
        int attempt = 0;
        for (StoryAudit audit : audits.stream().sorted(Comparator.comparing((StoryAudit a) -> a.row().receivedAt())
                .thenComparing(a -> a.row().id())).toList()) {
            if (audit.row().requestId().equals(requestId)) {
                attempt++;
            }
            events.add(new Event(audit.row().receivedAt(), audit, null,
                    audit.row().requestId().equals(requestId) ? attempt : 0, List.of(), List.of()));
        }
        for (StoryDeadLetter deadLetter : deadLetters) {
            long id = deadLetter.row().id();
            events.add(new Event(deadLetter.row().receivedAt(), null, deadLetter, 0,
                    audits.stream().filter(a -> a.redriveOf() != null && a.redriveOf() == id).map(a -> a.row().id()).toList(),
                    deadLetters.stream().filter(d -> d.redriveOf() != null && d.redriveOf() == id).map(d -> d.row().id())
                            .toList()));
        }
        events.sort(Comparator.comparing(Event::at).thenComparing(event -> event.forAudit() ? 1 : 0)
                .thenComparing(event -> event.forAudit() ? event.audit().row().id() : event.deadLetter().row().id()));
        return new Story(requestId, List.copyOf(events), cut);
    }
}
