package io.claimguard.checkpoint;

import io.claimguard.support.FileProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Ed25519 keys as PEM files, with {@code java.security} alone (Ed25519 since Java 15). The signing key file holds the
 * private key (PKCS#8, {@code BEGIN PRIVATE KEY}) and its public key ({@code BEGIN PUBLIC KEY}), because Java cannot
 * derive one from the other and the checkpoint's key id needs the public key; the public key file holds the public
 * key only. {@code openssl genpkey -algorithm ed25519} writes the first block, {@code openssl pkey -pubout} the second.
 */
public final class Ed25519Keys {

    private static final String ALGORITHM = "Ed25519";
    private static final String PRIVATE_KEY = "PRIVATE KEY";
    private static final String PUBLIC_KEY = "PUBLIC KEY";
    /** An X.509 SubjectPublicKeyInfo of an Ed25519 key is this 12-byte prefix, then the 32-byte key. */
    private static final int RAW_PUBLIC_KEY_SIZE = 32;

    private Ed25519Keys() {
    }

    /** A private key with its public key, checked to belong together. */
    public record SigningKey(PrivateKey privateKey, PublicKey publicKey) {
    }

    public static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance(ALGORITHM).generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this Java has no Ed25519", e);
        }
    }

    /** The signing key file's text: the private key, then the public key. */
    public static String signingKeyPem(KeyPair pair) {
        return pem(PRIVATE_KEY, pair.getPrivate().getEncoded()) + publicKeyPem(pair.getPublic());
    }

    public static String publicKeyPem(PublicKey key) {
        return pem(PUBLIC_KEY, key.getEncoded());
    }

    /** Where the public key of a signing key file is kept: beside it, as {@code <file>.pub}. */
    public static Path publicKeyFile(Path signingKeyFile) {
        return signingKeyFile.resolveSibling(signingKeyFile.getFileName() + ".pub");
    }

    /**
     * Writes a new key pair: the signing key file, readable and writable by its owner only ({@code rw-------}), and its
     * public key beside it ({@link #publicKeyFile}). The signing key file is never overwritten: it appears whole or not
     * at all (written under a hidden name, then linked), and when it exists already, also when another process made it
     * at the same moment, this fails with {@link FileAlreadyExistsException} and leaves it as it is.
     */
    public static void writeKeyFiles(Path signingKeyFile, KeyPair pair) throws IOException {
        Path temporary = signingKeyFile.resolveSibling("." + signingKeyFile.getFileName() + "." + UUID.randomUUID() + ".tmp");
        try {
            if (temporary.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(temporary, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            Files.writeString(temporary, signingKeyPem(pair), StandardCharsets.US_ASCII);
            try {
                // a hard link is made only where no file is: of two processes racing, one wins and the other reads its key
                Files.createLink(signingKeyFile, temporary);
            } catch (UnsupportedOperationException e) {
                // no hard links on this file system: a rename that never replaces a file
                Files.move(temporary, signingKeyFile);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
        writePublicKeyFile(signingKeyFile, pair.getPublic());
    }

    /** Writes (or replaces) the public key file beside a signing key file, whole or not at all. */
    public static void writePublicKeyFile(Path signingKeyFile, PublicKey key) throws IOException {
        Path publicFile = publicKeyFile(signingKeyFile);
        Path temporary = publicFile.resolveSibling("." + publicFile.getFileName() + "." + UUID.randomUUID() + ".tmp");
        try {
            Files.writeString(temporary, publicKeyPem(key), StandardCharsets.US_ASCII);
            Files.move(temporary, publicFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** Whether users other than the file's owner may read or change it; false where the file system has no such modes. */
    public static boolean othersMayRead(Path file) throws IOException {
        if (!file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return false;
        }
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
        return permissions.stream().anyMatch(permission -> !permission.name().startsWith("OWNER_"));
    }

    /** Reads a signing key file; fails with a message naming the file and what is wrong with it. */
    public static SigningKey readSigningKey(Path file) {
        String text = read(file);
        try {
            KeyFactory factory = KeyFactory.getInstance(ALGORITHM);
            PrivateKey privateKey = factory.generatePrivate(new PKCS8EncodedKeySpec(decode(file, text, PRIVATE_KEY)));
            PublicKey publicKey = factory.generatePublic(new X509EncodedKeySpec(decode(file, text, PUBLIC_KEY)));
            byte[] probe = "claimguard key pair check".getBytes(StandardCharsets.US_ASCII);
            if (!verifies(publicKey, probe, sign(privateKey, probe))) {
                throw new KeyFileException(file, "its PUBLIC KEY is not the public key of its PRIVATE KEY");
            }
            return new SigningKey(privateKey, publicKey);
        } catch (GeneralSecurityException e) {
            throw new KeyFileException(file, "not an Ed25519 key (" + e.getMessage() + ")");
        }
    }

    /** Reads the public key from a file holding a {@code BEGIN PUBLIC KEY} block. */
    public static PublicKey readPublicKey(Path file) {
        String text = read(file);
        try {
            return KeyFactory.getInstance(ALGORITHM).generatePublic(new X509EncodedKeySpec(decode(file, text, PUBLIC_KEY)));
        } catch (GeneralSecurityException e) {
            throw new KeyFileException(file, "not an Ed25519 public key (" + e.getMessage() + ")");
        }
    }

    public static byte[] sign(PrivateKey key, byte[] message) {
        try {
            Signature signature = Signature.getInstance(ALGORITHM);
            signature.initSign(key);
            signature.update(message);
            return signature.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign with Ed25519", e);
        }
    }

    public static boolean verifies(PublicKey key, byte[] message, byte[] signatureBytes) {
        try {
            Signature signature = Signature.getInstance(ALGORITHM);
            signature.initVerify(key);
            signature.update(message);
            return signature.verify(signatureBytes);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** The key as 32 raw bytes, as C2SP signed notes encode it. */
    public static byte[] raw(PublicKey key) {
        byte[] encoded = key.getEncoded();
        return Arrays.copyOfRange(encoded, encoded.length - RAW_PUBLIC_KEY_SIZE, encoded.length);
    }

    /**
     * The C2SP signed-note key id of an Ed25519 key under a name: the first 4 bytes of SHA-256(name, newline, the
     * signature type 0x01, the raw key).
     */
    public static byte[] keyId(String name, PublicKey key) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update(name.getBytes(StandardCharsets.UTF_8));
            sha256.update((byte) '\n');
            sha256.update((byte) 0x01);
            sha256.update(raw(key));
            return Arrays.copyOf(sha256.digest(), 4);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The C2SP verifier key text ({@code name+hexid+base64key}) that note-verifying tools accept. */
    public static String verifierKey(String name, PublicKey key) {
        byte[] typed = new byte[1 + RAW_PUBLIC_KEY_SIZE];
        typed[0] = 0x01;
        System.arraycopy(raw(key), 0, typed, 1, RAW_PUBLIC_KEY_SIZE);
        return name + "+" + java.util.HexFormat.of().formatHex(keyId(name, key)) + "+"
                + Base64.getEncoder().encodeToString(typed);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            String problem = FileProblem.describe(e);
            throw new KeyFileException(file, "cannot be read: " + (problem != null ? problem : e.getMessage()));
        }
    }

    private static byte[] decode(Path file, String text, String label) {
        Matcher matcher = Pattern.compile("-----BEGIN " + label + "-----([A-Za-z0-9+/=\\s]*)-----END " + label + "-----")
                .matcher(text);
        if (!matcher.find()) {
            throw new KeyFileException(file, "has no BEGIN " + label + " block");
        }
        try {
            return Base64.getMimeDecoder().decode(matcher.group(1));
        } catch (IllegalArgumentException e) {
            throw new KeyFileException(file, "holds a PEM block that is not base64");
        }
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    /** A key file that cannot be used, with the file's name and the reason. */
    public static final class KeyFileException extends IllegalArgumentException {

        KeyFileException(Path file, String problem) {
            super("key file " + file + " " + problem);
        }
    }
}
