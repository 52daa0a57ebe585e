package io.claimguard.replay;

import io.claimguard.replay.ReplayOutcome.Change;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a replay would have changed, as the command prints it: one summary line, then per reason code and verdict
 * change the inputs that moved, with their request ids (at most {@link #LISTED} per line), then the audits that could
 * not be replayed. A pure function of the outcomes.
 */
public final class ReplayReport {

    /** How many inputs one line names before it counts the rest. */
    static final int LISTED = 10;
    /** The cause named when no reason explains a change. */
    static final String MODEL_VERDICT = "(model verdict)";

    private ReplayReport() {
    }

    /**
     * @param policy the id of the policy replayed under
     * @param outcomes every replayed audit, in id order
     * @param notReplayed per audit that could not be replayed, its label and why
     */
    public static List<String> lines(String policy, List<ReplayOutcome> outcomes, List<String> notReplayed) {
        Map<Change, Integer> counts = new LinkedHashMap<>();
        Map<String, Integer> recordedUnder = new LinkedHashMap<>();
        // change, then cause, then from and to: stricter first, codes in alphabetical order
        Map<String, List<ReplayOutcome>> moved = new TreeMap<>();
        for (ReplayOutcome outcome : outcomes) {
            counts.merge(outcome.change(), 1, Integer::sum);
            recordedUnder.merge(outcome.audit().recordedPolicy(), 1, Integer::sum);
            if (outcome.change() != Change.UNCHANGED) {
                List<String> causes = outcome.causes().isEmpty() ? List.of(MODEL_VERDICT) : outcome.causes();
                for (String cause : causes) {
                    String key = outcome.change().ordinal() + " " + cause + ": " + outcome.audit().recordedVerdict()
                            + " -> " + outcome.replayedVerdict();
                    moved.computeIfAbsent(key, k -> new ArrayList<>()).add(outcome);
                }
            }
        }
        List<String> lines = new ArrayList<>();
        lines.add("replayed " + outcomes.size() + (outcomes.size() == 1 ? " audit" : " audits")
                + (recordedUnder.isEmpty() ? "" : " (recorded under " + recordedUnder(recordedUnder) + ")")
                + " under " + policy + ": " + counts.getOrDefault(Change.STRICTER, 0) + " stricter, "
                + counts.getOrDefault(Change.LESS_STRICT, 0) + " less strict, " + counts.getOrDefault(Change.UNCHANGED, 0)
                + " unchanged" + (notReplayed.isEmpty() ? "" : ", " + notReplayed.size() + " not replayed"));
        moved.forEach((key, inputs) -> lines.add("  " + key.substring(key.indexOf(' ') + 1) + ": " + named(inputs)));
        notReplayed.forEach(why -> lines.add("  not replayed: " + why));
        return lines;
    }

    private static String recordedUnder(Map<String, Integer> policies) {
        if (policies.size() == 1) {
            return policies.keySet().iterator().next();
        }
        List<String> each = new ArrayList<>();
        policies.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder())
                .thenComparing(Map.Entry.comparingByKey())).forEach(entry -> each.add(entry.getKey() + " (" + entry.getValue() + ")"));
        return String.join(", ", each);
    }

    private static String named(List<ReplayOutcome> inputs) {
        List<String> names = new ArrayList<>();
        for (ReplayOutcome input : inputs.subList(0, Math.min(LISTED, inputs.size()))) {
            names.add(input.audit().requestId() + " (audit " + input.audit().auditId() + ")");
        }
        return String.join(", ", names) + (inputs.size() > LISTED ? ", and " + (inputs.size() - LISTED) + " more" : "");
    }

    /** Whether a verdict changed at all, for the run's count. */
    static long changed(List<ReplayOutcome> outcomes) {
        return outcomes.stream().filter(outcome -> outcome.change() != Change.UNCHANGED).count();
    }
}
