package io.claimguard.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checkpoint line, its signature, the key files and the directory log, without a database. */
class CheckpointTest {

    private static final KeyPair KEY = Ed25519Keys.generate();
    private static final Checkpoint CHECKPOINT = new Checkpoint("claimguard/db.example:5432/audit", 42, filled(1), 57,
            filled(2), Instant.parse("2026-12-04T03:15:30.123456Z"));

    @TempDir
    Path work;

    @Test
    @DisplayName("Scenario: A checkpoint is a C2SP checkpoint note body with the chain head as extension line")
    void checkpointIsANoteBody() {
        assertThat(new String(CHECKPOINT.noteBody(), StandardCharsets.UTF_8)).isEqualTo("""
                claimguard/db.example:5432/audit
                42
                AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=
                seal 57 AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI= 2026-12-04T03:15:30.123Z
                """);
    }

    @Test
    @DisplayName("Scenario: A signed checkpoint line reads back as itself and verifies with the public key")
    void signedLineRoundTrips() {
        SignedCheckpoint signed = SignedCheckpoint.sign(CHECKPOINT, KEY.getPrivate(), KEY.getPublic());
        String line = signed.line();

        assertThat(line).startsWith("v1 claimguard/db.example:5432/audit 42 AQEB").doesNotContain("\n");
        SignedCheckpoint parsed = SignedCheckpoint.parse(line);
        assertThat(parsed).isEqualTo(signed);
        assertThat(parsed.checkpoint()).isEqualTo(CHECKPOINT);
        assertThat(parsed.signatureProblem(KEY.getPublic())).isNull();
        // the key id is C2SP's: the same as the verifier key text carries
        assertThat(Ed25519Keys.verifierKey(CHECKPOINT.origin(), KEY.getPublic()))
                .startsWith(CHECKPOINT.origin() + "+" + java.util.HexFormat.of().formatHex(signed.keyId()) + "+");
        assertThat(signed.note()).startsWith(new String(CHECKPOINT.noteBody(), StandardCharsets.UTF_8) + "\n\u2014 "
                + CHECKPOINT.origin() + " ");
    }

    @Test
    @DisplayName("Scenario: Any edit of a signed line breaks its signature or its form")
    void editsAreRefused() {
        String line = SignedCheckpoint.sign(CHECKPOINT, KEY.getPrivate(), KEY.getPublic()).line();

        SignedCheckpoint biggerTree = SignedCheckpoint.parse(line.replace(" 42 ", " 43 "));
        assertThat(biggerTree.signatureProblem(KEY.getPublic())).startsWith("the signature does not verify");
        assertThat(SignedCheckpoint.parse(line.replace("123Z", "124Z")).signatureProblem(KEY.getPublic()))
                .startsWith("the signature does not verify");
        assertThatThrownBy(() -> SignedCheckpoint.parse(line.replace("03:15:30.123Z", "03:15:30.1230Z")))
                .hasMessage("not a checkpoint line as the service writes it (a value written another way)");
        assertThatThrownBy(() -> SignedCheckpoint.parse(line + " "))
                .hasMessage("not a checkpoint line (expected 8 space-separated fields starting with v1)");
        assertThatThrownBy(() -> SignedCheckpoint.parse(line.replace(" 42 ", " forty-two ")))
                .hasMessageStartingWith("not a checkpoint line (For input string");
        assertThatThrownBy(() -> SignedCheckpoint.parse(line.replace("2026-12-04T", "2026-13-04T")))
                .hasMessageStartingWith("not a checkpoint line (the time does not parse");
    }

    @Test
    @DisplayName("Scenario: A checkpoint signed by another key names the key ids")
    void otherKeyIsNamed() {
        KeyPair other = Ed25519Keys.generate();
        SignedCheckpoint signed = SignedCheckpoint.sign(CHECKPOINT, other.getPrivate(), other.getPublic());

        assertThat(signed.signatureProblem(KEY.getPublic())).matches("signed by another key \\(key id [0-9a-f]{8}; the public"
                + " key's is [0-9a-f]{8}\\)");
        assertThat(signed.signatureProblem(other.getPublic())).isNull();
    }

    @Test
    @DisplayName("Scenario: A signing key file holds a matching pair, and a broken one is refused with the file named")
    void keyFiles() throws Exception {
        Path keyFile = work.resolve("good.key");
        Files.writeString(keyFile, Ed25519Keys.signingKeyPem(KEY));
        Ed25519Keys.SigningKey read = Ed25519Keys.readSigningKey(keyFile);
        assertThat(read.publicKey()).isEqualTo(KEY.getPublic());
        Path publicFile = work.resolve("good.pub");
        Files.writeString(publicFile, Ed25519Keys.publicKeyPem(KEY.getPublic()));
        assertThat(Ed25519Keys.readPublicKey(publicFile)).isEqualTo(KEY.getPublic());

        Path mismatched = work.resolve("mismatched.key");
        Files.writeString(mismatched, Ed25519Keys.signingKeyPem(KEY).replaceAll("(?s)-----BEGIN PUBLIC KEY.*",
                Ed25519Keys.publicKeyPem(Ed25519Keys.generate().getPublic())));
        assertThatThrownBy(() -> Ed25519Keys.readSigningKey(mismatched))
                .hasMessage("key file " + mismatched + " its PUBLIC KEY is not the public key of its PRIVATE KEY");
        assertThatThrownBy(() -> Ed25519Keys.readSigningKey(publicFile))
                .hasMessage("key file " + publicFile + " has no BEGIN PRIVATE KEY block");
        assertThatThrownBy(() -> Ed25519Keys.readSigningKey(work.resolve("absent.key")))
                .hasMessageStartingWith("key file " + work.resolve("absent.key") + " cannot be read");
    }

    @Test
    @DisplayName("Scenario: The directory log appends one line per checkpoint to a file per UTC day and reads every line back")
    void directoryLog() throws Exception {
        DirectoryCheckpointLog log = DirectoryCheckpointLog.create(work.resolve("checkpoints"));
        SignedCheckpoint first = SignedCheckpoint.sign(CHECKPOINT, KEY.getPrivate(), KEY.getPublic());
        Checkpoint nextDay = new Checkpoint(CHECKPOINT.origin(), 50, filled(3), 70, filled(4),
                Instant.parse("2026-12-05T00:00:01Z"));
        SignedCheckpoint second = SignedCheckpoint.sign(nextDay, KEY.getPrivate(), KEY.getPublic());
        log.append(first);
        // as if the power had gone while a line was written: the next line starts on a line of its own
        Files.writeString(work.resolve("checkpoints/checkpoints-2026-12-05.log"), "v1 cut short");
        log.append(second);
        Files.writeString(work.resolve("checkpoints/checkpoints-2026-12-05.log"), "garbage\n",
                java.nio.file.StandardOpenOption.APPEND);

        List<CheckpointLog.LoggedCheckpoint> entries = log.entries();

        assertThat(entries).extracting(CheckpointLog.LoggedCheckpoint::checkpoint).containsExactly(first, null, second, null);
        assertThat(entries.get(1).problem()).startsWith("not a checkpoint line");
        assertThat(entries.get(3).location()).isEqualTo(work.resolve("checkpoints/checkpoints-2026-12-05.log") + " line 3");
        assertThat(log.latest()).contains(second);
        assertThat(Files.readString(work.resolve("checkpoints/checkpoints-2026-12-04.log"))).isEqualTo(first.line() + "\n");
    }

    @Test
    @DisplayName("Scenario: The default origin names the database's host, port and name")
    void defaultOrigin() {
        assertThat(CheckpointOrigin.of("", "jdbc:postgresql://db.example:6432/audit?ssl=true"))
                .isEqualTo("claimguard/db.example:6432/audit");
        assertThat(CheckpointOrigin.of(null, "jdbc:postgresql://localhost/postgres")).isEqualTo("claimguard/localhost:5432/postgres");
        assertThat(CheckpointOrigin.of(" audit.example.com/prod ", "jdbc:postgresql://x/y")).isEqualTo("audit.example.com/prod");
        assertThatThrownBy(() -> CheckpointOrigin.of("", "jdbc:h2:mem:x")).hasMessageContaining("set claimguard.checkpoint.origin");
        assertThatThrownBy(() -> new Checkpoint("has space", 1, filled(0), 1, filled(0), Instant.EPOCH))
                .hasMessageContaining("printable ASCII without spaces");
    }

    private static byte[] filled(int value) {
        byte[] hash = new byte[32];
        Arrays.fill(hash, (byte) value);
        return hash;
    }

}
