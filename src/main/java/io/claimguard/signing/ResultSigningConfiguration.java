package io.claimguard.signing;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The signer of effective results: always on. At every start it says which key signs (its key id) and where the
 * public key that consumers verify with is; a key file that cannot be used stops the service at start.
 */
@Configuration(proxyBeanMethods = false)
class ResultSigningConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(ResultSigningConfiguration.class);

    @Bean
    ResultSignatures.Signer resultSigner(ResultSigningProperties settings) {
        ResultSigningKey signing = ResultSigningKey.load(settings);
        ResultSignatures.Signer signer = new ResultSignatures.Signer(signing.key());
        LOG.info("signing effective results with Ed25519 key id {} from {} ({}); consumers verify with the public key {}"
                        + " (verifier key {})", signer.keyId(), signing.file().toAbsolutePath(), signing.origin(),
                signing.publicKeyFile() == null
                        ? "(none beside the key file: give consumers the verifier key, or claimguard keygen's .pub file)"
                        : signing.publicKeyFile().toAbsolutePath(),
                ResultSignatures.verifierKey(signing.key().publicKey()));
        if (signing.readableByOthers()) {
            LOG.warn("the result-signing key {} may be read by users other than its owner: anyone who reads it can sign"
                    + " results as ClaimGuard (chmod 600 it)", signing.file().toAbsolutePath());
        }
        return signer;
    }
}
