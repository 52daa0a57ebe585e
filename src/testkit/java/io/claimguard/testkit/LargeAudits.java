package io.claimguard.testkit;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Very large inputs, as a user met them: an envelope with tens of thousands of claim checks (the audit explorer must
 * still show its page fast and small), and a file of tens of megabytes (rejected as too large, and kept bounded in
 * {@code dead_letter}). The test of the explorer's pages and the measurement harness make theirs here.
 */
public final class LargeAudits {

    /** Every this many claims one cites an invocation its trace does not hold, so that the audit has findings too. */
    public static final int FINDING_EVERY = 10;

    private LargeAudits() {
    }

    /**
     * A V2 envelope with {@code claims} claim checks, about 300 bytes each: text, type, label, detail and one evidence
     * ref into the one tool trace. Claim {@code n} is {@code claim-n} with the text {@link #claimText}; every
     * {@link #FINDING_EVERY}th cites invocation 999 that the trace does not hold ({@code evidence.unknown_invocation}).
     * Gatekeeper and parse status pass, the model says PASS.
     */
    public static byte[] envelopeWithClaims(String requestId, int claims) {
        StringBuilder json = new StringBuilder(claims * 320 + 1024);
        json.append("{\"request_id\": \"").append(requestId).append("\", \"verifier_input\": {")
                .append("\"original_query\": \"why is checkout slow?\", ")
                .append("\"executor_output_parse_status\": {\"status\": \"ok\"}, ")
                .append("\"gatekeeper_result\": {\"status\": \"pass\", \"failures\": []}, ")
                .append("\"tool_trace_summary\": [{\"trace_ref\": \"trace-1\", \"tool_name\": \"query_metrics\", ")
                .append("\"invocation_ids\": [394], \"summary\": \"p99 latency per service\"}]}, ")
                .append("\"verifier_output\": {\"verdict\": \"PASS\", \"groundedness_score\": 0.9, ")
                .append("\"critical_fact_count\": ").append(claims).append(", \"claim_checks\": [");
        for (int n = 0; n < claims; n++) {
            if (n > 0) {
                json.append(", ");
            }
            int invocation = n % FINDING_EVERY == FINDING_EVERY - 1 ? 999 : 394;
            json.append("{\"claim_id\": \"claim-").append(n).append("\", \"claim_text\": \"").append(claimText(n))
                    .append("\", \"claim_type\": \"symptom\", \"verification\": \"direct_observation\", ")
                    .append("\"detail\": \"query_metrics shows p99=").append(800 + n % 200).append("ms\", ")
                    .append("\"evidence_refs\": [{\"trace_ref\": \"trace-1\", \"tool_name\": \"query_metrics\", ")
                    .append("\"source_invocation_ids\": [").append(invocation).append("], \"note\": \"p99 of service-")
                    .append(n).append("\"}]}");
        }
        json.append("], \"rationale\": \"every claim is observed in the metrics\"}}");
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The text of claim {@code n} in {@link #envelopeWithClaims}. */
    public static String claimText(int n) {
        return "service-" + n + " p99 latency rose above 800 ms after the 10:02 deploy";
    }

    /**
     * Writes a file of exactly {@code bytes} bytes (at least 64) that starts like an envelope and is one huge rationale:
     * the shape of a producer's runaway output. Written in blocks, never held whole.
     */
    public static Path hugeFile(Path file, long bytes) {
        byte[] head = "{\"request_id\": \"huge-1\", \"verifier_output\": {\"rationale\": \"".getBytes(StandardCharsets.UTF_8);
        byte[] tail = "\"}}".getBytes(StandardCharsets.UTF_8);
        if (bytes < head.length + tail.length) {
            throw new IllegalArgumentException("a huge file has at least " + (head.length + tail.length) + " bytes");
        }
        byte[] block = "0123456789abcdef".repeat(4096).getBytes(StandardCharsets.US_ASCII);
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(head);
            long left = bytes - head.length - tail.length;
            while (left > 0) {
                int length = (int) Math.min(block.length, left);
                out.write(block, 0, length);
                left -= length;
            }
            out.write(tail);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}
