/**
 * The contract's rules in plain Java, tested without a framework: reading the envelope, the legacy projection, the
 * verdict guard, the evidence and consistency findings and the judgement policy, the effective result, every
 * dead-letter reason code, and the small values they share (limits, file names).
 * Uses nothing of ClaimGuard, and no Camel, Spring, JMS, JDBC or metrics.
 */
package io.claimguard.domain;
