/**
 * Signed checkpoints of the audit chain's head and receipts over the seals: the checkpoint and its log line, the
 * Ed25519 keys, the checkpoint log, the writer that runs after each sealing round and the verifier.
 * May use {@code seal}, {@code merkle}, {@code support} and {@code config}.
 */
package io.claimguard.checkpoint;
