/**
 * Forwarding the effective result: to the output queue ({@link io.claimguard.forward.ForwardRoute}), and the results
 * of concurrent file inputs in one JMS transaction ({@link io.claimguard.forward.ResultSender}).
 * May use {@code pipeline}, {@code support} and {@code domain}.
 */
package io.claimguard.forward;
