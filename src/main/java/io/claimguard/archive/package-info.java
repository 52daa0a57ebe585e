/**
 * Retention that keeps its proof: monthly partitions older than the configured age written to compressed JSON lines
 * archives (each with the seal range it covers and a signed checkpoint at its end), verified against the chain, and
 * only then detached and dropped; and the reading and verification of those archives for verify-chain and prove.
 * May use {@code seal}, {@code checkpoint} and {@code merkle}.
 */
package io.claimguard.archive;
