/**
 * What the service shows of itself: the summary log line, metrics and backlog gauges, the broker's health, the
 * {@code /actuator/claimguard} endpoint and the filter of repeated log lines.
 * May use {@code telemetry}, {@code status}, {@code pipeline}, {@code support}, {@code config} and {@code domain}.
 */
package io.claimguard.observe;
