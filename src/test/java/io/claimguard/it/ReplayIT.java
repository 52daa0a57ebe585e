package io.claimguard.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.cli.ExitCodes;
import io.claimguard.domain.Envelope;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.FindingCode;
import io.claimguard.domain.GuardRule;
import io.claimguard.domain.Limits;
import io.claimguard.domain.Policy;
import io.claimguard.domain.Verdict;
import io.claimguard.domain.Verification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code claimguard replay} over every example of {@code examples/}, each sent once with a request id of its own, and
 * the policy each audit row records.
 */
class ReplayIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final EnvelopeReader READER = new EnvelopeReader(Limits.DEFAULTS);
    private static final String AUDITS_OF = """
            SELECT to_jsonb(a)::text FROM claimguard.verification_audit a
            WHERE a.request_id = ANY (string_to_array(?, ',')) ORDER BY a.id""";
    private static final String OUTCOMES_OF = """
            SELECT a.request_id, o.recorded_policy, o.recorded_verdict, o.replayed_verdict,
                   array_to_string(o.replayed_reasons, ',') AS replayed_reasons
            FROM claimguard.replay_outcome o JOIN claimguard.verification_audit a ON a.id = o.audit_id
            WHERE o.run_id = ? ORDER BY o.audit_id""";

    /** The examples as sent, by request id; sent once for the whole class. */
    private static Map<String, Envelope> examples;

    @Test
    @DisplayName("Scenario: Replaying under the recorded policy changes nothing")
    void recordedPolicyChangesNothing() throws Exception {
        CliRun run = replay(Policy.CONTRACT);

        assertThat(changedBy(Policy.CONTRACT, run)).isEmpty();
        assertThat(run.lines().get(0)).isEqualTo("replayed " + examples().size() + " audits (recorded under default@1)"
                + " under default@1: 0 stricter, 0 less strict, " + examples().size() + " unchanged");
    }

    @Test
    @DisplayName("Scenario: A stricter rule cap changes exactly the inputs it caps")
    void stricterRuleCap() throws Exception {
        Policy strict = new Policy("strict", 2, Map.of(GuardRule.GATEKEEPER_FAIL, Verdict.REJECT), Map.of());
        Set<String> capped = examplesWhere(verification -> verification.guard().reasonCodes().contains("gatekeeper.fail")
                && verification.guard().effectiveVerdict() != Verdict.REJECT);
        CliRun run = replay(strict);

        assertThat(capped).as("examples a failed gatekeeper left above REJECT").isNotEmpty();
        assertThat(changedBy(strict, run)).isEqualTo(capped);
        assertThat(run.lines()).filteredOn(line -> line.startsWith("  ")).allSatisfy(line ->
                assertThat(line).matches("  gatekeeper\\.fail: (PASS|LOW_CONFID) -> REJECT: .*"));
        capped.forEach(requestId -> assertThat(run.out()).contains(requestId + " (audit "));
    }

    @Test
    @DisplayName("Scenario: A finding cap changes exactly the examples with that finding")
    void findingCap() throws Exception {
        Policy evidence = new Policy("evidence", 1, Map.of(),
                Map.of(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, Verdict.LOW_CONFID));
        Set<String> withTheFinding = examplesWhere(verification -> verification.guard().effectiveVerdict() == Verdict.PASS
                && verification.findings().stream().anyMatch(f -> f.code() == FindingCode.EVIDENCE_UNKNOWN_INVOCATION));
        CliRun run = replay(evidence);

        assertThat(withTheFinding).as("examples the contract passed with an unknown invocation").isNotEmpty();
        assertThat(changedBy(evidence, run)).isEqualTo(withTheFinding);
        assertThat(run.lines()).filteredOn(line -> line.startsWith("  ")).allSatisfy(line ->
                assertThat(line).matches("  evidence\\.unknown_invocation: PASS -> LOW_CONFID: .*"));
    }

    @Test
    @DisplayName("Scenario: A dry run records nothing")
    void dryRunRecordsNothing() throws Exception {
        examples();
        long runsBefore = SQL.queryForObject("SELECT count(*) FROM claimguard.replay_run", Long.class);
        long outcomesBefore = SQL.queryForObject("SELECT count(*) FROM claimguard.replay_outcome", Long.class);

        CliRun run = CliRun.of(withSelection("--dry-run", "--policy-name", "strict", "--policy-version", "3",
                "--rule-cap", "gatekeeper.fail=REJECT"));

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.lines().get(0)).startsWith("replayed " + examples().size() + " audits");
        assertThat(run.lines()).last().isEqualTo("dry run: nothing recorded");
        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.replay_run", Long.class)).isEqualTo(runsBefore);
        assertThat(SQL.queryForObject("SELECT count(*) FROM claimguard.replay_outcome", Long.class)).isEqualTo(outcomesBefore);
    }

    @Test
    void nothingSelectedIsSaidAndIsNoError() {
        CliRun run = CliRun.of(database("replay", "--request-id", uniqueId("replay-never-sent")));

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.lines()).containsExactly("nothing to replay: no audit matches the selection");
    }

    @Test
    @DisplayName("Scenario: Every audit row records the policy that judged it")
    void auditRowsRecordThePolicy() throws Exception {
        for (String requestId : examples().keySet()) {
            assertThat(auditRows(requestId)).singleElement().satisfies(row ->
                    assertThat(row).containsEntry("policy", Policy.CONTRACT.id()));
        }
    }

    @Test
    @DisplayName("Scenario: An audit row's policy is sealed")
    void policyIsSealed() throws Exception {
        String requestId = examples().keySet().iterator().next();
        long auditId = ((Number) awaitAuditRow(requestId).get("id")).longValue();
        await().atMost(PATIENCE).until(() -> sealed(requestId));
        assertThat(verifyChain().exitCode()).as("sealed").isZero();

        List<CliRun> altered = new ArrayList<>();
        try {
            for (String policy : new String[] {"strict@2", null}) {
                SQL.update("UPDATE claimguard.verification_audit SET policy = ? WHERE id = ?", policy, auditId);
                altered.add(verifyChain());
            }
        } finally {
            SQL.update("UPDATE claimguard.verification_audit SET policy = ? WHERE id = ?", Policy.CONTRACT.id(), auditId);
        }

        assertThat(altered).allSatisfy(run -> {
            assertThat(run.exitCode()).isEqualTo(ExitCodes.FINDINGS);
            assertThat(run.lines().get(0)).startsWith("audit_id=" + auditId + ": content altered");
        });
        assertThat(verifyChain().exitCode()).as("restored").isZero();
    }

    /**
     * Replays the examples under the policy and checks it against the domain's own judgement of each: the recorded
     * and replayed verdicts in the replay tables, the audit rows untouched. Returns the request ids whose verdict
     * changed.
     */
    private static Set<String> changedBy(Policy policy, CliRun run) throws Exception {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        String recorded = run.lines().get(run.lines().size() - 1);
        assertThat(recorded).startsWith("recorded as replay run ");
        long runId = Long.parseLong(recorded.split(" ")[4]);
        Map<String, Map<String, Object>> outcomes = SQL.queryForList(OUTCOMES_OF, runId).stream()
                .collect(Collectors.toMap(row -> (String) row.get("request_id"), row -> row));
        assertThat(outcomes.keySet()).isEqualTo(examples().keySet());
        Set<String> changed = new TreeSet<>();
        examples().forEach((requestId, envelope) -> {
            Verification asAudited = Verification.of(envelope);
            Verification replayed = Verification.of(envelope, policy);
            assertThat(outcomes.get(requestId)).as(requestId)
                    .containsEntry("recorded_policy", Policy.CONTRACT.id())
                    .containsEntry("recorded_verdict", asAudited.guard().effectiveVerdict().name())
                    .containsEntry("replayed_verdict", replayed.guard().effectiveVerdict().name())
                    .containsEntry("replayed_reasons", String.join(",", replayed.guard().reasonCodes()));
            if (replayed.guard().effectiveVerdict() != asAudited.guard().effectiveVerdict()) {
                changed.add(requestId);
            }
        });
        assertThat(SQL.queryForMap("SELECT policy, audits, changed FROM claimguard.replay_run WHERE id = ?", runId))
                .containsEntry("policy", policy.id()).containsEntry("audits", examples().size())
                .containsEntry("changed", changed.size());
        return changed;
    }

    /** Replays the examples under the policy, and checks that the audit rows are the same after as before. */
    private static CliRun replay(Policy policy) throws Exception {
        List<String> options = new ArrayList<>(List.of("--policy-name", policy.name(), "--policy-version",
                String.valueOf(policy.version())));
        policy.ruleCaps().forEach((rule, cap) -> options.addAll(List.of("--rule-cap", rule.code() + "=" + cap)));
        policy.findingCaps().forEach((code, cap) -> options.addAll(List.of("--finding-cap", code.code() + "=" + cap)));
        String requestIds = String.join(",", examples().keySet());
        List<String> before = SQL.queryForList(AUDITS_OF, String.class, requestIds);
        CliRun run = CliRun.of(withSelection(options.toArray(String[]::new)));
        assertThat(SQL.queryForList(AUDITS_OF, String.class, requestIds)).as("audit rows after the replay").isEqualTo(before);
        return run;
    }

    /** The request ids of the examples whose verification (under the contract's policy) matches. */
    private static Set<String> examplesWhere(Predicate<Verification> matches) throws Exception {
        Set<String> matching = new TreeSet<>();
        examples().forEach((requestId, envelope) -> {
            if (matches.test(Verification.of(envelope))) {
                matching.add(requestId);
            }
        });
        return matching;
    }

    private static String[] withSelection(String... options) throws Exception {
        List<String> args = new ArrayList<>();
        examples().keySet().forEach(requestId -> args.addAll(List.of("--request-id", requestId)));
        args.addAll(List.of(options));
        return database("replay", args.toArray(String[]::new));
    }

    private static String[] database(String command, String... arguments) {
        return Stream.concat(Stream.of(command, "--db-url", DATABASE.jdbcUrl(), "--db-user", DATABASE.username(),
                "--db-password", DATABASE.password()), Stream.of(arguments)).toArray(String[]::new);
    }

    private static CliRun verifyChain() {
        return CliRun.of(database("verify-chain"));
    }

    /** Sends every example once, under a request id of its own, and waits until each is audited. */
    private static synchronized Map<String, Envelope> examples() throws Exception {
        if (examples == null) {
            List<Path> files;
            try (Stream<Path> listed = Files.list(Path.of("examples"))) {
                files = listed.filter(path -> path.toString().endsWith(".json")).sorted().toList();
            }
            Map<String, Envelope> sent = new LinkedHashMap<>();
            for (Path file : files) {
                ObjectNode envelope = (ObjectNode) JSON.readTree(Files.readAllBytes(file));
                String requestId = uniqueId("replay-" + file.getFileName().toString().replace(".json", ""));
                byte[] bytes = JSON.writeValueAsBytes(envelope.put("request_id", requestId));
                sent.put(requestId, READER.read(bytes));
                dropFile(requestId + ".json", bytes);
            }
            sent.keySet().forEach(ServiceTestSupport::awaitAuditRow);
            examples = sent;
        }
        return examples;
    }
}
