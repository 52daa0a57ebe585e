/**
 * The fault harness, a program with a {@code main}: the service in processes of its own under faults (killed
 * processes, database and broker outages, hostile inputs), and the accounting that every input was audited or
 * dead-lettered exactly once. May use {@code testkit} and the service's classes; nothing uses it.
 */
package io.claimguard.harness.faults;
