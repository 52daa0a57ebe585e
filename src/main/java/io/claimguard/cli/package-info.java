/**
 * The jar's entry point ({@link io.claimguard.cli.ClaimGuardCli}, picocli): {@code serve} starts the service, every
 * other command is a tool that runs without an application context, with the options the commands share (database,
 * broker, queues). May use {@code archive}, {@code replay}, {@code status}, {@code checkpoint}, {@code merkle},
 * {@code seal}, {@code audit}, {@code signing}, {@code pipeline}, {@code support}, {@code broker}, {@code config} and
 * {@code domain}.
 */
package io.claimguard.cli;
