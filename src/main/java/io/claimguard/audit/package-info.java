/**
 * The audit rows: one statement per batch of accepted inputs ({@link io.claimguard.audit.AuditSql}), their group
 * commit ({@link io.claimguard.audit.AuditWriter}), the input key ({@link io.claimguard.audit.Sha256}) and values as
 * PostgreSQL can store them ({@link io.claimguard.audit.Text}, {@link io.claimguard.audit.StorableJson}).
 * May use {@code pipeline}, {@code support}, {@code config} and {@code domain}.
 */
package io.claimguard.audit;
