package io.claimguard.signing;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The key that signs every effective result ({@code claimguard.result-signing.*}). Results are always signed: without
 * a configured key the service makes its own on its first start and keeps it.
 *
 * @param privateKey an Ed25519 signing key file ({@code claimguard keygen} makes one), mounted in production; a file
 *     that cannot be used stops the service at start. Blank: the generated key
 * @param generatedKey where the service keeps the key it makes when {@code privateKey} is blank (the public key
 *     beside it as {@code <file>.pub}); made on the first start, readable by its owner only, and used from then on
 */
@ConfigurationProperties("claimguard.result-signing")
public record ResultSigningProperties(String privateKey, Path generatedKey) {

    public ResultSigningProperties {
        generatedKey = generatedKey == null ? Path.of("data", "keys", "result-signing.key") : generatedKey;
    }

    /** The configured key file; null when none is configured. */
    Path configuredKey() {
        return privateKey == null || privateKey.isBlank() ? null : Path.of(privateKey.strip());
    }
}
