package io.claimguard.it;

import java.nio.charset.StandardCharsets;

/** Envelopes for the integration tests, each with a request id of the test's own. */
final class Envelopes {

    private Envelopes() {
    }

    /** A V2 result the gatekeeper failed on evidence.invocation_ref: the model's PASS must become REJECT. */
    static String gatekeeperFailedV2(String requestId) {
        return """
                {"request_id": "%s",
                 "verifier_input": {
                   "original_query": "why is checkout slow?",
                   "executor_output_parse_status": {"status": "ok"},
                   "gatekeeper_result": {"status": "fail", "failures": [
                     {"check": "evidence.invocation_ref", "detail": "invocation 395 is not in the trace"}]}
                 },
                 "verifier_output": {
                   "verdict": "PASS", "groundedness_score": 0.62, "critical_fact_count": 1,
                   "claim_checks": [
                     {"claim_id": "claim-1", "claim_text": "payment-service CPU usage is high", "claim_type": "symptom",
                      "verification": "direct_observation", "detail": "query_metrics shows CPU=92%%",
                      "evidence_refs": [{"trace_ref": "trace-1", "tool_name": "query_metrics",
                                         "source_invocation_ids": [394], "note": "CPU=92%%"}]},
                     {"claim_id": "claim-2", "claim_text": "a deploy at 10:02 caused it", "claim_type": "root_cause",
                      "verification": "external_unknown", "detail": "no deploy in the traces"}
                   ],
                   "hypothesis_checks": [{"hypothesis": "connection pool exhaustion", "status": "open"}],
                   "rationale": "CPU is observed; the deploy is not.",
                   "model_notes": {"kept": "as received"}
                 },
                 "producer": "verifier-v2"}
                """.formatted(requestId);
    }

    /** A clean V1 result: gatekeeper pass, parse ok, legacy facts only; the model's PASS stands. */
    static String passingV1(String requestId) {
        return """
                {"request_id": "%s",
                 "verifier_input": {"executor_output_parse_status": {"status": "OK"}, "gatekeeper_result": {"status": "Pass"}},
                 "verifier_output": {"verdict": "pass", "groundedness_score": 0.9, "critical_fact_count": 1,
                   "facts_checked": [{"fact": "CPU is high", "is_critical": true, "verification": "direct_evidence",
                                      "detail": "CPU=92%%", "evidence_refs": []}],
                   "rationale": "grounded"}}
                """.formatted(requestId);
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
