package io.claimguard.signing;

import io.claimguard.checkpoint.Ed25519Keys;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.Arrays;

/**
 * The result-signing key the service starts with: the configured key file, or the key it made itself on its first
 * start ({@link ResultSigningProperties#generatedKey()}), with its public key file beside it.
 *
 * @param key the private and public key
 * @param file the signing key file
 * @param publicKeyFile the public key file beside it; null when a configured key has none
 * @param origin how the key came to be used: {@code configured}, {@code generated now} or {@code generated at an
 *     earlier start}
 */
record ResultSigningKey(Ed25519Keys.SigningKey key, Path file, Path publicKeyFile, String origin) {

    /** The configured key, or the generated one (made now if it does not exist yet); fails naming the file and why. */
    static ResultSigningKey load(ResultSigningProperties settings) {
        Path configured = settings.configuredKey();
        if (configured != null) {
            Ed25519Keys.SigningKey key = Ed25519Keys.readSigningKey(configured);
            Path publicFile = Ed25519Keys.publicKeyFile(configured);
            return new ResultSigningKey(key, configured, holds(publicFile, key.publicKey()) ? publicFile : null, "configured");
        }
        try {
            return generatedKey(settings.generatedKey());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make or read the result-signing key " + settings.generatedKey()
                    + " (set claimguard.result-signing.private-key to a key file, or let the service write there)", e);
        }
    }

    /** Whether users other than its owner may read the signing key file. */
    boolean readableByOthers() {
        try {
            return Ed25519Keys.othersMayRead(file);
        } catch (IOException e) {
            return false;
        }
    }

    private static ResultSigningKey generatedKey(Path file) throws IOException {
        String origin = "generated at an earlier start";
        if (!Files.exists(file)) {
            Path directory = file.toAbsolutePath().getParent();
            Files.createDirectories(directory);
            try {
                Ed25519Keys.writeKeyFiles(file, Ed25519Keys.generate());
                origin = "generated now";
            } catch (FileAlreadyExistsException e) {
                // another instance sharing the directory made it at the same moment: use that one
            }
        }
        Ed25519Keys.SigningKey key = Ed25519Keys.readSigningKey(file);
        Path publicFile = Ed25519Keys.publicKeyFile(file);
        if (!holds(publicFile, key.publicKey())) {
            // removed, or left from an earlier key: consumers must find this key's public key beside it
            Ed25519Keys.writePublicKeyFile(file, key.publicKey());
        }
        return new ResultSigningKey(key, file, publicFile, origin);
    }

    /** Whether the file exists and holds this public key. */
    private static boolean holds(Path publicFile, PublicKey key) {
        if (!Files.isRegularFile(publicFile)) {
            return false;
        }
        try {
            return Arrays.equals(Ed25519Keys.readPublicKey(publicFile).getEncoded(), key.getEncoded());
        } catch (Ed25519Keys.KeyFileException e) {
            return false;
        }
    }
}
