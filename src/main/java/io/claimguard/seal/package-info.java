/**
 * The audit seal: what a seal covers ({@link io.claimguard.seal.SealHash}), the sealer and its schedule with the
 * listeners that run after each round, and the chain's verification. May use {@code support} and {@code config}.
 */
package io.claimguard.seal;
