/**
 * The vocabulary the routes share: the direct endpoints, the input as received and what became of it, the result as
 * sent with its signature, typed access to an exchange's input; with it, for now, generic pieces the routes use
 * (the group commit, failure kinds and streaks, the re-drive property). May use {@code domain}.
 */
package io.claimguard.pipeline;
