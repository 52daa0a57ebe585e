/**
 * The one processing path every input takes ({@link io.claimguard.verify.VerificationRoute}) and how often a failing
 * step is retried, by what its failure means ({@link io.claimguard.verify.RetryPolicy}).
 * May use {@code observe}, {@code pipeline}, {@code support}, {@code config} and {@code domain}.
 */
package io.claimguard.verify;
