/**
 * Signed results: the signatures and their key id, the configured or generated signing key, the pipeline's
 * {@code sign} step and the verifier of results by key id.
 * May use {@code checkpoint} (its Ed25519 keys), {@code pipeline} and {@code domain}.
 */
package io.claimguard.signing;
