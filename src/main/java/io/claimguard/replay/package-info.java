/**
 * Replay as a feature: the audits an operator selects ({@code AuditSelection}), each re-judged under another policy
 * ({@code ReplayOutcome}), what would have changed ({@code ReplayReport}), and the run recorded beside the audit rows
 * ({@code Replay}). The {@code replay} command of {@code cli} holds only its options and its output. May use
 * {@code audit} (the envelope inside an audit document) and {@code domain}.
 */
package io.claimguard.replay;
