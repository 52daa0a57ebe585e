/**
 * The facts of {@code claimguard status} and {@code /actuator/claimguard}: counts, backlog, queue depths and the
 * chain's head, read over plain JDBC. May use {@code checkpoint}, {@code seal}, {@code config} and {@code domain}.
 */
package io.claimguard.status;
