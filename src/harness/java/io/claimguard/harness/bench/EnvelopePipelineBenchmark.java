package io.claimguard.harness.bench;

import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.domain.EffectiveResult;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.EnvelopeRejectedException;
import io.claimguard.domain.Limits;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.SignedResult;
import io.claimguard.signing.ResultSignatures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.PrivateKey;
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
 * five-claim "why is checkout slow?" V2 envelope of the tests. Beside it, the same with the result signed as the
 * service signs every forwarded result (Ed25519, {@code java.security}), and the signature alone: what signing costs.
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
    private ResultSignatures.Signer signer;
    private PrivateKey privateKey;
    private String result;

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
        KeyPair pair = Ed25519Keys.generate();
        signer = new ResultSignatures.Signer(new Ed25519Keys.SigningKey(pair.getPrivate(), pair.getPublic()));
        privateKey = pair.getPrivate();
        result = EffectiveResult.toJson(verification, 42L);
        System.out.println("envelope " + ENVELOPE + ": " + envelope.length + " bytes, " + claimChecks + " claim checks, effective result "
                + EffectiveResult.toJson(verification, 42L).length() + " chars");
    }

    @Benchmark
    public String readProjectGuardWrite() throws EnvelopeRejectedException {
        Verification verification = Verification.of(reader.read(envelope));
        return EffectiveResult.toJson(verification, 42L);
    }

    /** The same, and the result signed as the service's {@code sign} step signs it. */
    @Benchmark
    public SignedResult readProjectGuardWriteSign() throws EnvelopeRejectedException {
        Verification verification = Verification.of(reader.read(envelope));
        return signer.sign(EffectiveResult.toJson(verification, 42L));
    }

    /** Signing one effective result alone (its UTF-8 bytes, the Ed25519 signature, base64). */
    @Benchmark
    public SignedResult sign() {
        return signer.sign(result);
    }

    /** The same signature with Java 17's own Ed25519 ({@code java.security}), which the service does not use for it. */
    @Benchmark
    public byte[] signWithJavaSecurity() {
        return Ed25519Keys.sign(privateKey, result.getBytes(StandardCharsets.UTF_8));
    }
}
