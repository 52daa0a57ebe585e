package io.claimguard.signing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.cli.ClaimGuardCli;
import io.claimguard.pipeline.SignedResult;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The key the service signs results with, as its start makes it ({@link ResultSigningConfiguration}, the bean the
 * application context builds), on the real file system: generated and kept, or configured.
 */
class ResultSigningKeyTest {

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(ResultSigningConfiguration.class);

    @BeforeEach
    void listen() {
        log.start();
        logger.addAppender(log);
    }

    @AfterEach
    void stopListening() {
        logger.detachAppender(log);
    }

    @Test
    @DisplayName("Scenario: Without a configured key one is generated on the first start, owner-only, and reused after")
    void generatedOnFirstStartOwnerOnlyAndReused(@TempDir Path data) throws Exception {
        Path keyFile = data.resolve("keys").resolve("result-signing.key");
        Path publicFile = data.resolve("keys").resolve("result-signing.key.pub");
        ResultSigningProperties defaults = new ResultSigningProperties("", keyFile);

        ResultSignatures.Signer first = start(defaults);

        assertThat(Files.getPosixFilePermissions(keyFile)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(ResultSignatures.keyId(Ed25519Keys.readPublicKey(publicFile))).isEqualTo(first.keyId());
        assertThat(data.resolve("keys").toFile().list()).containsExactlyInAnyOrder("result-signing.key", "result-signing.key.pub");
        assertThat(lastLine()).contains("key id " + first.keyId(), "from " + keyFile.toAbsolutePath() + " (generated now)",
                "public key " + publicFile.toAbsolutePath(), "verifier key claimguard-results+" + first.keyId() + "+");
        byte[] keyBytes = Files.readAllBytes(keyFile);

        // a second start: the same key, the file untouched; a .pub removed in between is written again
        Files.delete(publicFile);
        ResultSignatures.Signer second = start(defaults);

        assertThat(second.keyId()).isEqualTo(first.keyId());
        assertThat(Files.readAllBytes(keyFile)).isEqualTo(keyBytes);
        assertThat(ResultSignatures.keyId(Ed25519Keys.readPublicKey(publicFile))).isEqualTo(first.keyId());
        assertThat(lastLine()).contains("key id " + first.keyId(), "generated at an earlier start",
                "public key " + publicFile.toAbsolutePath());
        SignedResult signed = second.sign("{\"audit_id\":1}");
        assertThat(new ResultVerifier(List.of(Ed25519Keys.readPublicKey(publicFile)))
                .check(signed.bytes(), signed.keyId(), signed.signature()).verified()).isTrue();
        assertThat(log.list).noneMatch(event -> event.getLevel() == ch.qos.logback.classic.Level.WARN);

        // someone opened it to the group: every start says so
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-r-----"));
        start(defaults);
        assertThat(lastLine()).contains("may be read by users other than its owner", keyFile.toAbsolutePath().toString());
    }

    @Test
    @DisplayName("Scenario: A configured key signs the results, and one that cannot be used stops the start")
    void configuredKeySignsAndAnUnusableOneStopsTheStart(@TempDir Path folder) throws Exception {
        Path configured = folder.resolve("mounted").resolve("claimguard-results.key");
        Files.createDirectories(configured.getParent());
        assertThat(ClaimGuardCli.execute(new String[] {"keygen", "--out", configured.toString()},
                new PrintWriter(Writer.nullWriter()), new PrintWriter(Writer.nullWriter()))).isZero();
        Path generated = folder.resolve("data").resolve("keys").resolve("result-signing.key");

        ResultSignatures.Signer signer = start(new ResultSigningProperties(" " + configured + " ", generated));

        assertThat(signer.keyId()).isEqualTo(ResultSignatures.keyId(Ed25519Keys.readPublicKey(Ed25519Keys.publicKeyFile(configured))));
        assertThat(Files.exists(generated)).as("no key generated beside a configured one").isFalse();
        assertThat(lastLine()).contains("from " + configured.toAbsolutePath() + " (configured)",
                "public key " + Ed25519Keys.publicKeyFile(configured).toAbsolutePath());

        Path missing = folder.resolve("not-mounted.key");
        assertThatThrownBy(() -> start(new ResultSigningProperties(missing.toString(), generated)))
                .hasMessageContaining(missing.toString()).hasMessageContaining("cannot be read");
        Path notAKey = Files.writeString(folder.resolve("not-a.key"), "hello\n");
        assertThatThrownBy(() -> start(new ResultSigningProperties(notAKey.toString(), generated)))
                .hasMessageContaining(notAKey.toString()).hasMessageContaining("has no BEGIN PRIVATE KEY block");
        assertThat(Files.exists(generated)).isFalse();
    }

    private static ResultSignatures.Signer start(ResultSigningProperties settings) {
        return new ResultSigningConfiguration().resultSigner(settings);
    }

    private String lastLine() {
        return log.list.get(log.list.size() - 1).getFormattedMessage();
    }
}
