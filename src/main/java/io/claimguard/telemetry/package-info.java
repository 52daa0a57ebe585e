/**
 * OpenTelemetry, off by default: a span per input continuing the producer's trace, and
 * {@code gen_ai.evaluation.result} events per input and claim check.
 * May use {@code pipeline}, {@code config} and {@code domain}.
 */
package io.claimguard.telemetry;
