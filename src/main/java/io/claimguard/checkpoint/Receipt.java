package io.claimguard.checkpoint;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What an auditor keeps to prove, with the public key alone, that an audit row was in the chain when a checkpoint was
 * signed ({@link Inclusion}), or that a later checkpoint's tree extends an earlier one's ({@link Consistency}). Both
 * are JSON documents; hashes in hex where they name a seal, proofs in base64 as in the checkpoint.
 */
public sealed interface Receipt permits Receipt.Inclusion, Receipt.Consistency {

    String INCLUSION = "claimguard-inclusion-v1";
    String CONSISTENCY = "claimguard-consistency-v1";

    /**
     * @param sealHash the seal's hash (hex): the leaf's data
     * @param previousHash the hash of the seal before it (hex), with which the row's content gives {@code sealHash}
     * @param leafIndex the seal's position in seq order, from 0
     * @param inclusionProof RFC 6962 audit path from the leaf to the root of the checkpoint's tree (base64)
     * @param checkpoint the signed checkpoint line whose root the proof ends at
     */
    record Inclusion(
            @JsonProperty("receipt") String receipt,
            @JsonProperty("audit_id") long auditId,
            @JsonProperty("request_id") String requestId,
            @JsonProperty("seal_seq") long sealSeq,
            @JsonProperty("seal_hash") String sealHash,
            @JsonProperty("previous_hash") String previousHash,
            @JsonProperty("leaf_index") long leafIndex,
            @JsonProperty("inclusion_proof") List<String> inclusionProof,
            @JsonProperty("checkpoint") String checkpoint) implements Receipt {
    }

    /**
     * @param consistencyProof RFC 6962 consistency proof from the older tree to the newer one (base64)
     */
    record Consistency(
            @JsonProperty("receipt") String receipt,
            @JsonProperty("old_checkpoint") String oldCheckpoint,
            @JsonProperty("new_checkpoint") String newCheckpoint,
            @JsonProperty("consistency_proof") List<String> consistencyProof) implements Receipt {
    }
}
