package io.claimguard.domain;

import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Evidence integrity: every {@code evidence_refs} entry of every claim check against
 * {@code verifier_input.tool_trace_summary}. The rules are in openspec/specs/evidence-findings/spec.md.
 */
final class EvidenceCheck {

    private static final String TRACES = "verifier_input.tool_trace_summary";

    /** The first trace of each trace_ref: the one a reference names. */
    private final Map<String, JsonNode> tracesByRef = new HashMap<>();
    /** Why there is no trace at all, when tool_trace_summary is not a list; null when it is one. */
    private final String noTraces;
    /** Each trace's invocation ids as comparison keys, worked out on first use. */
    private final Map<JsonNode, Set<Object>> invocationsByTrace = new IdentityHashMap<>();
    private final List<Finding> findings;

    private EvidenceCheck(JsonNode traces, List<Finding> findings) {
        this.findings = findings;
        if (traces.isArray()) {
            noTraces = null;
            for (JsonNode trace : traces.values()) {
                String traceRef = Json.string(trace.get("trace_ref"));
                if (traceRef != null) {
                    tracesByRef.putIfAbsent(traceRef, trace);
                }
            }
        } else {
            noTraces = Json.isAbsent(traces)
                    ? TRACES + " is absent"
                    : TRACES + " is " + EnvelopeReader.describeType(traces) + ", not a list";
        }
    }

    static void check(JsonNode verifierInput, Projection projection, List<Finding> findings) {
        EvidenceCheck check = new EvidenceCheck(verifierInput.path("tool_trace_summary"), findings);
        projection.claims().forEach(check::checkClaim);
    }

    private void checkClaim(ProjectedClaim claim) {
        String claimLabel = Findings.claimCheckLabel(claim);
        JsonNode refs = claim.evidenceRefs();
        if (refs.isArray()) {
            if (refs.isEmpty() && claim.knownVerification().equals(Optional.of(ClaimVerification.DIRECT_OBSERVATION))) {
                add(FindingCode.EVIDENCE_NONE_FOR_DIRECT_OBSERVATION, claim,
                        claimLabel + " is checked as direct_observation but cites no evidence_refs");
            }
            for (int index = 0; index < refs.size(); index++) {
                checkRef(claim, claimLabel + ": evidence_refs[" + index + "]", refs.get(index));
            }
        } else {
            // A single reference not wrapped in a list is still read, so that its trace is checked all the same.
            checkRef(claim, claimLabel + ": evidence_refs (not a list)", refs);
        }
    }

    private void checkRef(ProjectedClaim claim, String refLabel, JsonNode ref) {
        if (!ref.isObject()) {
            add(FindingCode.EVIDENCE_MALFORMED_REF, claim, refLabel + " is " + EnvelopeReader.describeType(ref) + ", not an object");
            return;
        }
        JsonNode traceRefNode = ref.get("trace_ref");
        if (Json.isAbsent(traceRefNode)) {
            add(FindingCode.EVIDENCE_MALFORMED_REF, claim, refLabel + " has no trace_ref");
            return;
        }
        if (!traceRefNode.isString()) {
            add(FindingCode.EVIDENCE_MALFORMED_REF, claim,
                    refLabel + " has a trace_ref that is " + EnvelopeReader.describeType(traceRefNode) + ", not text");
            return;
        }
        String traceRef = Findings.quoted(traceRefNode.stringValue());
        JsonNode trace = tracesByRef.get(traceRefNode.stringValue());
        if (trace == null) {
            add(FindingCode.EVIDENCE_DANGLING_TRACE_REF, claim, refLabel + " names trace_ref " + traceRef
                    + (noTraces == null ? ", which no trace of " + TRACES + " has" : ", but " + noTraces));
            return;
        }
        checkToolName(claim, refLabel, traceRef, ref.get("tool_name"), trace.get("tool_name"));
        checkInvocations(claim, refLabel, traceRef, ref.get("source_invocation_ids"), trace);
    }

    private void checkToolName(ProjectedClaim claim, String refLabel, String traceRef, JsonNode refTool, JsonNode traceTool) {
        if (Json.isAbsent(refTool) || refTool.equals(traceTool)) {
            return;
        }
        add(FindingCode.EVIDENCE_TOOL_MISMATCH, claim, refLabel + " names tool_name " + Findings.value(refTool) + ", but trace "
                + traceRef + (Json.isAbsent(traceTool) ? " has no tool_name" : " has tool_name " + Findings.value(traceTool)));
    }

    private void checkInvocations(ProjectedClaim claim, String refLabel, String traceRef, JsonNode cited, JsonNode trace) {
        if (Json.isAbsent(cited)) {
            return;
        }
        Set<Object> known = invocationsByTrace.computeIfAbsent(trace, EvidenceCheck::invocationKeys);
        List<JsonNode> values = listed(cited);
        for (int index = 0; index < values.size(); index++) {
            JsonNode value = values.get(index);
            if (!known.contains(invocationKey(value))) {
                add(FindingCode.EVIDENCE_UNKNOWN_INVOCATION, claim, refLabel + " cites invocation " + Findings.value(value)
                        + (cited.isArray() ? " (source_invocation_ids[" + index + "])" : "")
                        + ", which is not among the invocation_ids of trace " + traceRef);
            }
        }
    }

    private static Set<Object> invocationKeys(JsonNode trace) {
        JsonNode ids = trace.get("invocation_ids");
        Set<Object> keys = new HashSet<>();
        if (!Json.isAbsent(ids)) {
            listed(ids).forEach(id -> keys.add(invocationKey(id)));
        }
        return keys;
    }

    /** A list's values, or a single value that is not a list as the list of that one value. */
    private static List<JsonNode> listed(JsonNode node) {
        return node.isArray() ? List.copyOf(node.values()) : List.of(node);
    }

    /** Numbers compare by value (394 and 394.0 are the same invocation); any other value only with an equal value. */
    private static Object invocationKey(JsonNode id) {
        return Findings.canonicalNumber(id).<Object>map(number -> number).orElse(id);
    }

    private void add(FindingCode code, ProjectedClaim claim, String detail) {
        findings.add(new Finding(code, claim.ordinal(), detail));
    }
}
