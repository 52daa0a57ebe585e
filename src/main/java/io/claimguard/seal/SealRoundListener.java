package io.claimguard.seal;

/**
 * A step that runs on the sealer's thread after each sealing round, and once more when the sealer stops: so that what
 * follows the chain's head (signed checkpoints) sees every seal the round made, and never runs on an input's thread.
 * A listener handles its own failures; one that throws is logged and does not stop the sealer.
 */
public interface SealRoundListener {

    /** After a sealing round, whether it sealed anything or failed. */
    void afterSealRound();

    /** When the sealer stops (the service shutting down gracefully), after its last round. */
    void sealerStopping();
}
