/**
 * Generic mechanisms that know nothing of the product, each written once: the group commit that audit rows and file
 * results share ({@code GroupCommit}), repeated failures logged once ({@code FailureStreak}), what a failure means
 * by its SQLSTATE and its chain of causes ({@code Failures}), a file problem said in one sentence
 * ({@code FileProblem}), exponential back-off ({@code Backoff}) and the one escaping of values in log lines
 * ({@code LogValue}). Uses nothing of ClaimGuard ({@code Failures} offers its kinds as Camel predicates too).
 */
package io.claimguard.support;
