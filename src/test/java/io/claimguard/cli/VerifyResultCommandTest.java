package io.claimguard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.cli.ClaimGuardCliTest.Run;
import io.claimguard.pipeline.SignedResult;
import io.claimguard.signing.ResultSignatures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code claimguard verify-result} on files and lines made here: no broker, no database. */
class VerifyResultCommandTest {

    /** A result with what JSON written again would change: a number's digits, an escape, a letter beyond ASCII. */
    private static final String RESULT = "{\"audit_id\":9,\"request_id\":\"r-9\",\"verdict\":\"PASS\",\"groundedness_score\":0.620,"
            + "\"rationale\":\"caf\u00e9 \\u00e9 \\\"quoted\\\" \ud83d\udd25\"}";

    @Test
    @DisplayName("Scenario: verify-result's wrong arguments exit 2 and an unreadable file exits 3")
    void wrongArgumentsAndUnreadableFiles(@TempDir Path folder) throws Exception {
        Path key = keygen(folder.resolve("results.key"));
        String publicKey = Ed25519Keys.publicKeyFile(key).toString();
        Path result = Files.writeString(folder.resolve("r.json"), RESULT);

        assertUsage(Run.of("verify-result", result.toString()), "Missing required option: '--public-key=FILE|DIR'");
        assertUsage(Run.of("verify-result", "--public-key", publicKey, "--signature", "AAAA", result.toString()),
                "--signature and --key-id go together");
        assertUsage(Run.of("verify-result", "--public-key", publicKey), "no FILE");
        assertUsage(Run.of("verify-result", "--public-key", publicKey, "-"), "add --lines");
        Path notAKey = Files.writeString(folder.resolve("not-a-key.pub"), "hello\n");
        assertUsage(Run.of("verify-result", "--public-key", notAKey.toString(), result.toString()),
                "key file " + notAKey + " has no BEGIN PUBLIC KEY block");
        assertUsage(Run.of("verify-result", "--public-key", Files.createDirectories(folder.resolve("empty")).toString(),
                result.toString()), "a directory without .pub files");

        Path missing = folder.resolve("gone.json");
        Run unreadable = Run.of("verify-result", "--public-key", publicKey, missing.toString());
        assertThat(unreadable.exitCode()).as(unreadable.toString()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(unreadable.err()).startsWith("claimguard verify-result: cannot read " + missing);
        Run unreadableLines = Run.of("verify-result", "--public-key", publicKey, "--lines", missing.toString());
        assertThat(unreadableLines.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
    }

    @Test
    @DisplayName("A body file with --signature and --key-id, and JSON lines in every body encoding, are checked byte for byte")
    void bodyFilesAndLines(@TempDir Path folder) throws Exception {
        Path key = keygen(folder.resolve("results.key"));
        String publicKey = Ed25519Keys.publicKeyFile(key).toString();
        SignedResult signed = new ResultSignatures.Signer(Ed25519Keys.readSigningKey(key)).sign(RESULT);
        Path body = Files.write(folder.resolve("body.bin"), signed.bytes());

        Run explicit = Run.of("verify-result", "--public-key", publicKey, "--signature", signed.signature(), "--key-id",
                signed.keyId(), body.toString());
        assertThat(explicit.exitCode()).as(explicit.toString()).isZero();
        assertThat(explicit.out()).isEqualTo("verified: " + body + " (signed by key id " + signed.keyId() + ")\n");
        Run noSidecar = Run.of("verify-result", "--public-key", publicKey, body.toString());
        assertThat(noSidecar.exitCode()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(noSidecar.out()).isEqualTo("NOT VERIFIED: " + body + ": no signature (no body.bin.sig beside it)\n");

        String properties = "\"properties\":{\"ClaimGuardRequestId\":\"r-9\",\"ClaimGuardAuditId\":9,"
                + "\"ClaimGuardSignatureKeyId\":\"" + signed.keyId() + "\",\"ClaimGuardSignature\":\"" + signed.signature() + "\"}";
        String text = JsonLines.line(signed.text());
        Path lines = Files.write(folder.resolve("lines.jsonl"), List.of(
                // as browse and consume --with-properties embed a one-line JSON body: exactly as sent
                "{\"message_id\":\"ID:1\",\"timestamp\":null," + properties + ",\"body_encoding\":\"json\",\"body\":" + RESULT + "}",
                "{\"message_id\":\"ID:2\"," + properties + ",\"body_encoding\":\"text\",\"body\":" + text + "}",
                "{\"message_id\":\"ID:3\"," + properties + ",\"body_encoding\":\"base64\",\"body\":\""
                        + Base64.getEncoder().encodeToString(signed.bytes()) + "\"}",
                "",
                // the same body written again by a JSON library: other bytes, so the signature does not match
                "{\"message_id\":\"ID:4\"," + properties + ",\"body_encoding\":\"json\",\"body\":"
                        + JsonLines.line(JsonLines.parsed(RESULT)) + "}",
                // consume without --with-properties: a body alone
                RESULT,
                "not json"), StandardCharsets.UTF_8);

        Run checked = Run.of("verify-result", "--public-key", publicKey, "--lines", lines.toString());

        assertThat(checked.exitCode()).as(checked.toString()).isEqualTo(ExitCodes.FINDINGS);
        String where = lines + " line ";
        String about = " (request_id r-9, audit_id 9)";
        assertThat(checked.out().lines()).containsExactly(
                "verified: " + where + 1 + about + " (signed by key id " + signed.keyId() + ")",
                "verified: " + where + 2 + about + " (signed by key id " + signed.keyId() + ")",
                "verified: " + where + 3 + about + " (signed by key id " + signed.keyId() + ")",
                "NOT VERIFIED: " + where + 5 + about + ": signature does not match (key id " + signed.keyId() + ")",
                "NOT VERIFIED: " + where + 6 + ": no signature (a line without properties: take the results with consume"
                        + " --with-properties)",
                "NOT VERIFIED: " + where + 7 + ": not a JSON line as browse or consume --with-properties print");
        assertThat(checked.err()).isEqualTo("3 of 6 result(s) verified; 3 NOT verified\n");

        Path empty = Files.writeString(folder.resolve("empty.jsonl"), "");
        Run none = Run.of("verify-result", "--public-key", publicKey, "--lines", empty.toString());
        assertThat(none.exitCode()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(none.err()).isEqualTo("no result read\n");
    }

    private static Path keygen(Path keyFile) {
        assertThat(Run.of("keygen", "--out", keyFile.toString()).exitCode()).isZero();
        return keyFile;
    }

    private static void assertUsage(Run run, String detail) {
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).as(run.toString()).startsWith("claimguard verify-result: ").contains(detail);
    }
}
