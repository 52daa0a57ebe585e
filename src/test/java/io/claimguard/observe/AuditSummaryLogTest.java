package io.claimguard.observe;

import static io.claimguard.domain.SeededCases.forAll;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The label counts of the summary line, written without a map per input, read as log searches know them. */
class AuditSummaryLogTest {

    @Test
    @DisplayName("Scenario: The summary line's label counts read as a sorted map prints them")
    void labelCountsReadAsASortedMapPrintsThem() {
        List<List<String>> edgeCases = List.of(List.of(), List.of("absent"), List.of("b", "a", "b"));
        forAll("label counts", edgeCases, 500,
                gen -> gen.<String>list(0, 12, () -> gen.<String>pick("direct_observation", "external_unknown", "absent", "", "Direct",
                        "inferred", "a=b", "not_checked")),
                labels -> String.join("|", labels),
                labels -> {
                    Map<String, Long> sorted = labels.stream()
                            .collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()));
                    assertThat(AuditSummaryLog.countedInOrder(labels.toArray(String[]::new)))
                            .isEqualTo(sorted.toString());
                });
    }
}
