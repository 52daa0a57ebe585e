/**
 * The one place a {@code dead_letter} row is built and written ({@link io.claimguard.deadletter.DeadLetterRoute}):
 * a rejected or failed input's bytes and why, once per delivery.
 * May use {@code audit}, {@code observe}, {@code pipeline}, {@code support}, {@code config} and {@code domain}.
 */
package io.claimguard.deadletter;
