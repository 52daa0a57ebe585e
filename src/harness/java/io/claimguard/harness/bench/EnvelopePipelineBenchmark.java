package io.claimguard.harness.bench;

import io.claimguard.domain.EffectiveResult;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.EnvelopeRejectedException;
import io.claimguard.domain.Limits;
import io.claimguard.domain.Verification;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The whole domain pipeline for one input, as a route runs it: read the bytes (UTF-8, JSON, schema), project
 * {@code facts_checked}, guard the verdict, and write the effective result. The envelope is the realistic
 * five-claim "why is checkout slow?" V2 envelope of the tests.
 *
 * <p>Run: {@code ./mvnw -B -Pbench test-compile exec:exec -Dbench.args="EnvelopePipelineBenchmark -f 1 -wi 3 -i 5 -t 1"}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class EnvelopePipelineBenchmark {

    private static final String ENVELOPE = "/envelopes/checkout-slow-v2.json";
    private static final int EXPECTED_CLAIM_CHECKS = 5;

    private EnvelopeReader reader;
    private byte[] envelope;

    @Setup
    public void loadEnvelope() throws IOException, EnvelopeRejectedException {
        reader = new EnvelopeReader(Limits.DEFAULTS);
        try (InputStream in = EnvelopePipelineBenchmark.class.getResourceAsStream(ENVELOPE)) {
            envelope = in.readAllBytes();
        }
        // Measure the accepting path only: a fixture that is rejected or lost claims would measure something else.
        Verification verification = Verification.of(reader.read(envelope));
        int claimChecks = verification.projection().claims().size();
        if (claimChecks != EXPECTED_CLAIM_CHECKS) {
            throw new IllegalStateException(ENVELOPE + " has " + claimChecks + " claim checks, expected " + EXPECTED_CLAIM_CHECKS);
        }
        System.out.println("envelope " + ENVELOPE + ": " + envelope.length + " bytes, " + claimChecks + " claim checks, effective result "
                + EffectiveResult.toJson(verification, 42L).length() + " chars");
    }

    @Benchmark
    public String readProjectGuardWrite() throws EnvelopeRejectedException {
        Verification verification = Verification.of(reader.read(envelope));
        return EffectiveResult.toJson(verification, 42L);
    }
}
