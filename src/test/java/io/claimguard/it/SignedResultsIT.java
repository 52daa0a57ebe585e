package io.claimguard.it;

import static io.claimguard.testkit.Envelopes.passingV1;
import static io.claimguard.testkit.Envelopes.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.claimguard.broker.BrokerRole;
import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.pipeline.ResultProperties;
import io.claimguard.pipeline.SignedResult;
import io.claimguard.signing.ResultSignatures;
import io.claimguard.testkit.JmsClient;
import io.claimguard.testkit.TestBrokerUsers;
import jakarta.jms.TextMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Signed results against the running service (spec result-signing): the key it generated on its first start, the
 * signature on every path, and consumers that tell ClaimGuard's results from anybody else's: {@code verify-result}, the
 * Python program and Java lines of docs/producing-and-consuming.md. Each test works on the output queue with a selector on its own request
 * ids only.
 */
class SignedResultsIT extends ServiceTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String BROKER = "tcp://127.0.0.1:" + BROKER_PORT;
    private static final Path README = Path.of("docs/producing-and-consuming.md");

    @Test
    @DisplayName("Scenario: A forged and an altered result on the output queue are told apart from genuine ones")
    void forgedAndAlteredResultsAreToldApart(@TempDir Path folder) throws Exception {
        String prefix = uniqueId("sig-queue");
        sendText(passingV1(prefix + "-jms"), prefix + "-jms");
        Path outboxFile = fileResult(prefix + "-file");
        String genuine = Files.readString(outboxFile, StandardCharsets.UTF_8);
        JsonNode signature = JSON.readTree(sidecar(outboxFile).toFile());
        // a client holding a login allowed to send to the output queue (ClaimGuard's own, leaked), which is not ClaimGuard
        JmsClient client = new JmsClient(BROKER, TestBrokerUsers.users());
        client.sendText(BrokerRole.SERVICE, OUTPUT_QUEUE, genuine.replace(prefix + "-file", prefix + "-forged"),
                Map.of(ResultProperties.REQUEST_ID, prefix + "-forged"));
        ResultSignatures.Signer another = new ResultSignatures.Signer(
                Ed25519Keys.readSigningKey(keygen(folder.resolve("another.key"))));
        SignedResult byAnother = another.sign(genuine.replace(prefix + "-file", prefix + "-another"));
        client.sendText(BrokerRole.SERVICE, OUTPUT_QUEUE, byAnother.text(), Map.of(ResultProperties.REQUEST_ID, prefix + "-another",
                ResultProperties.SIGNATURE_KEY_ID, byAnother.keyId(), ResultProperties.SIGNATURE, byAnother.signature()));
        client.sendText(BrokerRole.SERVICE, OUTPUT_QUEUE, genuine.replace("\"verdict\":\"PASS\"", "\"verdict\":\"REJECT\""),
                Map.of(ResultProperties.REQUEST_ID, prefix + "-altered",
                        ResultProperties.SIGNATURE_KEY_ID, signature.get(ResultProperties.SIGNATURE_KEY_ID).stringValue(),
                        ResultProperties.SIGNATURE, signature.get(ResultProperties.SIGNATURE).stringValue()));
        String selector = "ClaimGuardRequestId LIKE '" + prefix + "-%'";
        await().atMost(PATIENCE).until(() -> CliRun.of("browse", OUTPUT_QUEUE, "--output-queue", OUTPUT_QUEUE, "--broker", BROKER,
                "--broker-credentials", BROKER_CREDENTIALS.toString(), "--selector", selector)
                .lines().size() == 5);

        // claimguard consume --with-properties | claimguard verify-result --lines, through a file
        CliRun consumed = CliRun.of("consume", "--broker", BROKER, "--broker-credentials", BROKER_CREDENTIALS.toString(), "--queue", OUTPUT_QUEUE, "--with-properties",
                "--selector", selector, "--wait", "1s");
        assertThat(consumed.exitCode()).as(consumed.err()).isZero();
        Path lines = Files.write(folder.resolve("results.jsonl"), consumed.lines(), StandardCharsets.UTF_8);
        CliRun verified = CliRun.of("verify-result", "--public-key", RESULT_SIGNING_PUBLIC_KEY.toString(), "--lines",
                lines.toString());

        assertThat(verified.exitCode()).as(verified.toString()).isEqualTo(1);
        assertThat(verified.lines()).hasSize(5);
        String serviceKeyId = ResultSignatures.keyId(Ed25519Keys.readPublicKey(RESULT_SIGNING_PUBLIC_KEY));
        assertThat(lineAbout(verified, prefix + "-jms")).startsWith("verified: ").endsWith("(signed by key id " + serviceKeyId + ")");
        assertThat(lineAbout(verified, prefix + "-file")).startsWith("verified: ");
        assertThat(lineAbout(verified, prefix + "-forged")).startsWith("NOT VERIFIED: ").endsWith(": no signature");
        assertThat(lineAbout(verified, prefix + "-another")).startsWith("NOT VERIFIED: ")
                .contains(": unknown key id " + byAnother.keyId() + " (known: " + serviceKeyId + ")");
        assertThat(lineAbout(verified, prefix + "-altered")).startsWith("NOT VERIFIED: ")
                .endsWith(": signature does not match (key id " + serviceKeyId + ")");
        assertThat(verified.err()).isEqualTo("2 of 5 result(s) verified; 3 NOT verified\n");
    }

    @Test
    @DisplayName("Scenario: The documented Python consumer verifies results over AMQP 1.0")
    void readmeConsumersVerifyResults(@TempDir Path folder) throws Exception {
        String prefix = uniqueId("sig-python");
        // a file input: its result goes to the output queue in a group of file results, and to the outbox
        Path outboxFile = fileResult(prefix + "-genuine");
        String genuine = Files.readString(outboxFile, StandardCharsets.UTF_8);
        JsonNode signature = JSON.readTree(sidecar(outboxFile).toFile());
        String keyId = signature.get(ResultProperties.SIGNATURE_KEY_ID).stringValue();
        JmsClient client = new JmsClient(BROKER, TestBrokerUsers.users());
        client.sendText(BrokerRole.SERVICE, OUTPUT_QUEUE, genuine.replace(prefix + "-genuine", prefix + "-forged"),
                Map.of(ResultProperties.REQUEST_ID, prefix + "-forged", ResultProperties.SIGNATURE_KEY_ID, keyId,
                        ResultProperties.SIGNATURE, Base64.getEncoder().encodeToString(new byte[64])));
        client.sendText(BrokerRole.SERVICE, OUTPUT_QUEUE, genuine.replace("\"verdict\":\"PASS\"", "\"verdict\":\"REJECT\""),
                Map.of(ResultProperties.REQUEST_ID, prefix + "-altered", ResultProperties.SIGNATURE_KEY_ID, keyId,
                        ResultProperties.SIGNATURE, signature.get(ResultProperties.SIGNATURE).stringValue()));
        String selector = "ClaimGuardRequestId LIKE '" + prefix + "-%'";
        await().atMost(PATIENCE).until(() -> CliRun.of("browse", OUTPUT_QUEUE, "--output-queue", OUTPUT_QUEUE, "--broker", BROKER,
                "--broker-credentials", BROKER_CREDENTIALS.toString(), "--selector", selector)
                .lines().size() == 3);

        Path program = Files.writeString(folder.resolve("verify_results.py"), readmeBlock("python", "`verify_results.py`:"));
        Process python = new ProcessBuilder("/usr/bin/python3", program.toString(), TestBrokerUsers.amqpUrl(BROKER_PORT, BrokerRole.CONSUMER),
                OUTPUT_QUEUE, selector, RESULT_SIGNING_PUBLIC_KEY.toString()).redirectErrorStream(true).start();
        String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(python.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(python.exitValue()).as(output).isZero();
        assertThat(output.lines()).containsExactlyInAnyOrder("made by ClaimGuard: " + prefix + "-genuine",
                "NOT made by ClaimGuard: " + prefix + "-forged", "NOT made by ClaimGuard: " + prefix + "-altered");

        // the documented Java lines: a genuine result read as a JMS TextMessage verifies, an altered copy does not
        String javaId = prefix + "-java";
        sendText(passingV1(javaId), javaId);
        TextMessage result = (TextMessage) receiveResult(javaId);
        assertThat(madeByClaimGuard(result, RESULT_SIGNING_PUBLIC_KEY)).isTrue();
        client.sendText(BrokerRole.SERVICE, OUTPUT_QUEUE, result.getText().replace("\"verdict\":\"PASS\"", "\"verdict\":\"LOW_CONFID\""),
                Map.of(ResultProperties.REQUEST_ID, javaId + "-altered",
                        ResultProperties.SIGNATURE_KEY_ID, result.getStringProperty(ResultProperties.SIGNATURE_KEY_ID),
                        ResultProperties.SIGNATURE, result.getStringProperty(ResultProperties.SIGNATURE)));
        assertThat(madeByClaimGuard((TextMessage) receiveResult(javaId + "-altered"), RESULT_SIGNING_PUBLIC_KEY)).isFalse();
        List<String> javaSource = Files.readAllLines(Path.of("src/test/java/io/claimguard/it/SignedResultsIT.java")).stream()
                .map(String::strip).toList();
        assertThat(readmeBlock("java", "SignedResultsIT.madeByClaimGuard").lines().map(String::strip)
                .filter(line -> !line.isEmpty())).as("the documented Java lines are this test's").allMatch(javaSource::contains);
    }

    @Test
    @DisplayName("Scenario: An outbox file's signature is beside it before the file appears")
    void outboxSignatureIsBesideTheFileBeforeItAppears() throws Exception {
        String prefix = uniqueId("sig-outbox");
        int files = 12;
        IntStream.range(0, files).forEach(i -> dropFile(prefix + "-" + i + ".json", utf8(passingV1(prefix + "-" + i))));

        Set<Path> seen = new HashSet<>();
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(1)).until(() -> {
            if (Files.isDirectory(OUTBOX)) {
                try (Stream<Path> listed = Files.list(OUTBOX)) {
                    for (Path file : listed.filter(file -> file.getFileName().toString().startsWith(prefix)
                            && file.getFileName().toString().endsWith(".json")).toList()) {
                        assertThat(sidecar(file)).as("the signature of %s, when it is seen", file.getFileName()).exists();
                        seen.add(file);
                    }
                }
            }
            return seen.size() == files;
        });

        List<String> arguments = new ArrayList<>(List.of("verify-result", "--public-key", RESULT_SIGNING_PUBLIC_KEY.toString()));
        seen.stream().map(Path::toString).sorted().forEach(arguments::add);
        CliRun verified = CliRun.of(arguments.toArray(String[]::new));
        assertThat(verified.exitCode()).as(verified.toString()).isZero();
        assertThat(verified.lines()).hasSize(files).allMatch(line -> line.startsWith("verified: " + OUTBOX));
        try (Stream<Path> listed = Files.list(OUTBOX)) {
            assertThat(listed.map(file -> file.getFileName().toString()).filter(name -> name.contains(prefix)))
                    .as("no dot-name left behind").hasSize(2 * files).noneMatch(name -> name.startsWith("."));
        }
        // the same result on the output queue (sent in a group of file results) carries the same signature
        Path first = seen.stream().filter(file -> file.getFileName().toString().startsWith(prefix + "-0.")).findFirst().orElseThrow();
        TextMessage message = (TextMessage) receiveResult(prefix + "-0");
        assertThat(message.getText().getBytes(StandardCharsets.UTF_8)).isEqualTo(Files.readAllBytes(first));
        assertThat(message.getStringProperty(ResultProperties.SIGNATURE))
                .isEqualTo(JSON.readTree(sidecar(first).toFile()).get(ResultProperties.SIGNATURE).stringValue());
    }

    @Test
    @DisplayName("Scenario: During a key rotation results signed with either key verify, and an unknown key id is refused")
    void duringARotationEitherKeyVerifies(@TempDir Path folder) throws Exception {
        String requestId = uniqueId("sig-rotation");
        Path fromService = fileResult(requestId);
        // the key the service generated at its first start: readable by its owner only, the public key beside it
        assertThat(Files.getPosixFilePermissions(RESULT_SIGNING_KEY)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
        String serviceKeyId = ResultSignatures.keyId(Ed25519Keys.readPublicKey(RESULT_SIGNING_PUBLIC_KEY));
        // the new key, already given to consumers, signs results once the service is switched to it
        Path newKey = keygen(folder.resolve("new.key"));
        Path newPublicKey = Ed25519Keys.publicKeyFile(newKey);
        SignedResult rotated = new ResultSignatures.Signer(Ed25519Keys.readSigningKey(newKey))
                .sign(Files.readString(fromService, StandardCharsets.UTF_8).replace(requestId, requestId + "-rotated"));
        Path fromNewKey = Files.write(folder.resolve(requestId + "-rotated.1.json"), rotated.bytes());
        Files.writeString(sidecar(fromNewKey), rotated.sidecar());

        CliRun both = CliRun.of("verify-result", "--public-key", RESULT_SIGNING_PUBLIC_KEY.toString(), "--public-key",
                newPublicKey.toString(), fromService.toString(), fromNewKey.toString());
        assertThat(both.exitCode()).as(both.toString()).isZero();
        assertThat(both.lines()).containsExactly(
                "verified: " + fromService + " (signed by key id " + serviceKeyId + ")",
                "verified: " + fromNewKey + " (signed by key id " + rotated.keyId() + ")");
        Path trusted = Files.createDirectories(folder.resolve("trusted"));
        Files.copy(RESULT_SIGNING_PUBLIC_KEY, trusted.resolve("old.pub"));
        Files.copy(newPublicKey, trusted.resolve("new.pub"));
        CliRun directory = CliRun.of("verify-result", "--public-key", trusted.toString(), fromService.toString(),
                fromNewKey.toString());
        assertThat(directory.exitCode()).as(directory.toString()).isZero();

        CliRun newOnly = CliRun.of("verify-result", "--public-key", newPublicKey.toString(), fromService.toString(),
                fromNewKey.toString());
        assertThat(newOnly.exitCode()).as(newOnly.toString()).isEqualTo(1);
        assertThat(newOnly.lines()).containsExactly(
                "NOT VERIFIED: " + fromService + ": unknown key id " + serviceKeyId + " (known: " + rotated.keyId() + ")",
                "verified: " + fromNewKey + " (signed by key id " + rotated.keyId() + ")");
    }

    /**
     * The documented Java lines ("Checking in Java"), word for word: whether ClaimGuard made a result taken as a JMS
     * TextMessage.
     */
    static boolean madeByClaimGuard(TextMessage message, Path publicKeyFile) throws Exception {
        // once: the public key from the .pub file, and its key id as ClaimGuard computes it
        PublicKey key = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(
                Base64.getMimeDecoder().decode(Files.readString(publicKeyFile).replaceAll("-----[A-Z ]+-----", ""))));
        byte[] encoded = key.getEncoded();  // X.509: a 12-byte prefix, then the raw 32-byte key
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        sha256.update("claimguard-results\n".getBytes(StandardCharsets.US_ASCII));
        sha256.update((byte) 0x01);
        sha256.update(encoded, encoded.length - 32, 32);
        String keyId = HexFormat.of().formatHex(sha256.digest(), 0, 4);
        // each result: the text's UTF-8 bytes, with the key its key id names
        String signature = message.getStringProperty("ClaimGuardSignature");
        Signature ed25519 = Signature.getInstance("Ed25519");
        ed25519.initVerify(key);
        ed25519.update(message.getText().getBytes(StandardCharsets.UTF_8));
        boolean madeByClaimGuard = keyId.equals(message.getStringProperty("ClaimGuardSignatureKeyId")) && signature != null
                && ed25519.verify(Base64.getDecoder().decode(signature));
        return madeByClaimGuard;
    }

    /** Drops a file input and waits for its result in the outbox. */
    private static Path fileResult(String requestId) {
        dropFile(requestId + ".json", utf8(passingV1(requestId)));
        long auditId = ((Number) awaitAuditRow(requestId).get("id")).longValue();
        Path result = OUTBOX.resolve(requestId + "." + auditId + ".json");
        await().atMost(PATIENCE).until(() -> Files.exists(result));
        return result;
    }

    private static Path sidecar(Path resultFile) {
        return resultFile.resolveSibling(resultFile.getFileName() + SignedResult.SIDECAR_SUFFIX);
    }

    private static Path keygen(Path keyFile) {
        CliRun keygen = CliRun.of("keygen", "--out", keyFile.toString());
        assertThat(keygen.exitCode()).as(keygen.toString()).isZero();
        return keyFile;
    }

    private static String lineAbout(CliRun run, String requestId) {
        return run.lines().stream().filter(line -> line.contains("(request_id " + requestId + ","))
                .reduce((one, other) -> {
                    throw new AssertionError("two lines about " + requestId + ": " + one + " / " + other);
                }).orElseThrow(() -> new AssertionError("no line about " + requestId + " in " + run.lines()));
    }

    /** The document's first code block in the language after the text {@code after}. */
    private static String readmeBlock(String language, String after) throws Exception {
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        int start = readme.indexOf("```" + language + "\n", readme.indexOf(after));
        assertThat(readme.indexOf(after)).as("the document mentions " + after).isNotNegative();
        int body = start + ("```" + language + "\n").length();
        return readme.substring(body, readme.indexOf("\n```", body) + 1);
    }
}
