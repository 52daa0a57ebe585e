/**
 * The growth harness, a program with a {@code main}: what every operation an operator or analyst runs costs as the
 * audit tables grow (a database grown to each size by SQL copies of real rows, then timed).
 * May use {@code testkit} and the service's classes; nothing uses it.
 */
package io.claimguard.harness.growth;
