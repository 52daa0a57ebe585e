package io.claimguard.explorer;

import io.claimguard.domain.FindingCode;
import io.claimguard.domain.GuardRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The codes a list can be filtered by, as the domain writes them: a guard reason is a guard rule's code or, when a
 * policy caps a verdict by a finding, that finding's code; a finding is a {@link FindingCode}. A filter's text matches
 * every such code it starts with ({@code gatekeeper} finds {@code gatekeeper.fail}, {@code gatekeeper.missing}, ...)
 * and itself exactly, so that a code written by an earlier version is still found by its whole name.
 */
final class Codes {

    static final List<String> FINDINGS = Arrays.stream(FindingCode.values()).map(FindingCode::code).sorted().toList();
    static final List<String> GUARD_REASONS = Stream.concat(Arrays.stream(GuardRule.values()).map(GuardRule::code),
            FINDINGS.stream()).sorted().toList();

    private Codes() {
    }

    /** The codes this text stands for: those of {@code known} that start with it, and the text itself; null for none. */
    static List<String> matching(String text, List<String> known) {
        if (text == null) {
            return null;
        }
        List<String> codes = new ArrayList<>(known.stream().filter(code -> code.startsWith(text)).toList());
        if (!codes.contains(text)) {
            codes.add(text);
        }
        return List.copyOf(codes);
    }
}
