/**
 * The vocabulary the routes share: the direct endpoints, the input as received and what became of it, the result as
 * sent with its signature, typed access to an exchange's input, the re-drive property. May use {@code support} and {@code domain}.
 */
package io.claimguard.pipeline;
