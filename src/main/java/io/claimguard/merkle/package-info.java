/**
 * An RFC 6962 (Certificate Transparency) Merkle tree, in plain Java: the hashing
 * ({@link io.claimguard.merkle.Rfc6962}), the prover's roots and proofs over leaf hashes held in memory
 * ({@link io.claimguard.merkle.MerkleTree}), the incremental root ({@link io.claimguard.merkle.CompactRange}), a root and
 * one leaf's inclusion proof computed as the leaves stream past ({@link io.claimguard.merkle.StreamedInclusion}) and the
 * verifier, which needs no tree ({@link io.claimguard.merkle.MerkleProofs}).
 *
 * <p>Every function takes leaf <em>hashes</em> ({@code SHA-256(0x00 || data)}), never leaf data, so that the caller
 * decides once what a leaf is: for ClaimGuard's audit seals the leaf data is the seal's 32-byte hash, in {@code seq}
 * order. Indexes are 0-based. Proofs are lists of 32-byte hashes ordered from the leaves up, as RFC 6962 and RFC 9162
 * write them. Hashes going in are copied where they are kept, and hashes coming out are fresh arrays.
 *
 * <p>A caller's mistake (null, a hash that is not 32 bytes, an index or size out of range) is an
 * {@link java.lang.IllegalArgumentException} on the prover's side; on the verifier's side anything wrong with the
 * claim being checked is a {@link io.claimguard.merkle.ProofException}, because there the claim comes from outside.
 *
 * <p>A proof binds the leaf (or the old tree) to the root, not the tree size to the root: for some pairs of sizes the
 * same proof verifies under both (the audit path of leaf 0 is the same shape in trees of 3 and 4 leaves). The size
 * is authenticated by whatever authenticates the root, the signed checkpoint that carries both.
 */
package io.claimguard.merkle;
