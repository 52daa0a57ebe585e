/**
 * The envelope fuzzer, a program with a {@code main}: the domain core over mutated envelopes, checked by an oracle of
 * its own to throw nothing but a rejection and never let PASS through where a guard rule must fire.
 * May use {@code testkit} and the service's classes; nothing uses it.
 */
package io.claimguard.harness.fuzz;
