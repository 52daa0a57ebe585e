/**
 * Programs with a {@code main} that measure: the JMH domain benchmark, the throughput, scaling and explorer pages
 * harnesses, with their probes and reports (results under {@code bench/results/}).
 * May use {@code testkit} and the service's classes; nothing uses it.
 */
package io.claimguard.harness.bench;
