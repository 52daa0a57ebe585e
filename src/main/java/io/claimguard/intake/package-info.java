/**
 * The entry points, each route its whole flow from taking an input to acknowledging it: the file inbox, JMS (Artemis,
 * in batches) and Kafka (in batches, at least once), with what the batched ones share
 * ({@link io.claimguard.intake.BatchOfInputs}). Every input goes on to {@code verify} through {@code pipeline}'s
 * endpoints. May use {@code observe}, {@code pipeline}, {@code support}, {@code config} and {@code domain}.
 */
package io.claimguard.intake;
