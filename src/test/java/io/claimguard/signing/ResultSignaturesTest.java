package io.claimguard.signing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.domain.EffectiveResult;
import io.claimguard.domain.Verification;
import io.claimguard.pipeline.ResultProperties;
import io.claimguard.pipeline.SignedResult;
import io.claimguard.testkit.Envelopes;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The signing of effective results in plain Java: {@link ResultSignatures} and {@link ResultVerifier}. */
class ResultSignaturesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final KeyPair pair = Ed25519Keys.generate();
    private final ResultSignatures.Signer signer = new ResultSignatures.Signer(
            new Ed25519Keys.SigningKey(pair.getPrivate(), pair.getPublic()));
    private final String result = EffectiveResult.toJson(Envelopes.clean()
            .output("rationale", "'CPU at 92 % on the \u00e9dge nodes \u2014 \ud83d\udd25'").verify(), 7L);

    @Test
    @DisplayName("Scenario: A result's signature verifies over its exact bytes and names its key")
    void signatureVerifiesOverTheExactBytesAndNamesItsKey() throws Exception {
        SignedResult signed = signer.sign(result);

        assertThat(signed.text()).isEqualTo(result);
        assertThat(signed.bytes()).isEqualTo(result.getBytes(StandardCharsets.UTF_8));
        assertThat(new String(signed.bytes(), StandardCharsets.UTF_8)).isEqualTo(signed.text());
        // the C2SP signed-note key id, computed here from its definition, under the name claimguard-results
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        sha256.update("claimguard-results\n".getBytes(StandardCharsets.US_ASCII));
        sha256.update((byte) 0x01);
        sha256.update(Ed25519Keys.raw(pair.getPublic()));
        assertThat(signed.keyId()).isEqualTo(HexFormat.of().formatHex(Arrays.copyOf(sha256.digest(), 4)))
                .isEqualTo(signer.keyId()).matches("[0-9a-f]{8}");
        byte[] signature = Base64.getDecoder().decode(signed.signature());
        assertThat(signature).hasSize(64);
        assertThat(Ed25519Keys.verifies(pair.getPublic(), signed.bytes(), signature)).isTrue();
        // RFC 8032 is deterministic: Bouncy Castle's signature is byte for byte java.security's
        assertThat(signature).isEqualTo(Ed25519Keys.sign(pair.getPrivate(), signed.bytes()));
        // deterministic: a duplicate's result, sent again, carries the same signature
        assertThat(signer.sign(result).signature()).isEqualTo(signed.signature());

        ResultVerifier verifier = new ResultVerifier(List.of(Ed25519Keys.generate().getPublic(), pair.getPublic()));
        assertThat(verifier.check(signed.bytes(), signed.keyId(), signed.signature()))
                .isEqualTo(new ResultVerifier.Check(true, "signed by key id " + signed.keyId()));

        byte[] altered = signed.bytes().clone();
        altered[altered.length / 2] ^= 1;
        assertThat(verifier.check(altered, signed.keyId(), signed.signature()).reason())
                .isEqualTo("signature does not match (key id " + signed.keyId() + ")");
        ResultVerifier otherKeysOnly = new ResultVerifier(List.of(Ed25519Keys.generate().getPublic()));
        assertThat(otherKeysOnly.check(signed.bytes(), signed.keyId(), signed.signature()).reason())
                .startsWith("unknown key id " + signed.keyId() + " (known: " + otherKeysOnly.keyIds().get(0) + ")");
        assertThat(verifier.check(signed.bytes(), signed.keyId(), "bm90IGEgc2lnbmF0dXJl").reason())
                .isEqualTo("signature is 15 bytes, not 64");
        assertThat(verifier.check(signed.bytes(), signed.keyId(), "not base64!").reason()).isEqualTo("signature is not base64");
        assertThat(verifier.check(signed.bytes(), null, null).reason()).isEqualTo("no signature");
        assertThat(verifier.check(signed.bytes(), "", signed.signature()).reason()).isEqualTo("no key id");
        assertThat(verifier.check(signed.bytes(), signed.keyId(), signed.signature()).verified()).isTrue();

        // the sidecar beside an outbox file: the same two names as the JMS properties and Kafka headers
        JsonNode sidecar = JSON.readTree(signed.sidecar());
        assertThat(sidecar.propertyNames()).containsExactly(ResultProperties.SIGNATURE_KEY_ID, ResultProperties.SIGNATURE);
        assertThat(sidecar.get(ResultProperties.SIGNATURE).stringValue()).isEqualTo(signed.signature());
        assertThat(signed.sidecar()).endsWith("}\n");
    }

    @Test
    @DisplayName("Scenario: A result holding a lone surrogate is sent as the bytes its signature covers")
    void loneSurrogateIsSentAsTheBytesItsSignatureCovers() {
        Verification verification = Verification.of(Envelopes.read(Envelopes.utf8(Envelopes.gatekeeperFailedV2("odd")
                .replace("\"CPU is observed; the deploy is not.\"", "\"lone \\ud800 and a pair \\ud83d\\udd25\""))));

        String written = EffectiveResult.toJson(verification, 3L);

        assertThat(written).contains("\"lone \\ud800 and a pair \ud83d\udd25\"");
        assertThat(EffectiveResult.isWellFormed(written)).isTrue();
        assertThat(new String(written.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(written);
        assertThat(JSON.readTree(written).get("rationale").stringValue()).isEqualTo("lone \ud800 and a pair \ud83d\udd25");
        SignedResult signed = signer.sign(written);
        assertThat(new ResultVerifier(List.of(pair.getPublic())).check(signed.bytes(), signed.keyId(), signed.signature())
                .verified()).isTrue();
        assertThatThrownBy(() -> signer.sign("{\"rationale\":\"raw \ud800\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lone surrogate");
    }
}
