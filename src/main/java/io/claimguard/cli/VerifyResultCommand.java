package io.claimguard.cli;

import io.claimguard.checkpoint.Ed25519Keys;
import io.claimguard.pipeline.ResultProperties;
import io.claimguard.pipeline.SignedResult;
import io.claimguard.signing.ResultVerifier;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;

/** Checks that effective results were signed by ClaimGuard, with its public keys alone. */
@Command(name = "verify-result", mixinStandardHelpOptions = true,
        description = {
            "Check that effective results were made by ClaimGuard: each one's Ed25519 signature over its exact bytes, with"
                + " the public key its key id names.",
            "FILE is an outbox file, its signature in FILE.sig beside it, or any file holding a result's exact bytes with"
                + " --signature and --key-id. With --lines each FILE (- or none: standard input) holds JSON lines as"
                + " 'browse' and 'consume --with-properties' print them. One line per result on standard output:"
                + " 'verified: ...' or 'NOT VERIFIED: ...: <reason>' (unknown key id, signature does not match, no"
                + " signature); a summary line goes to standard error.",
            "Several public keys may be valid at once (a key rotation, several instances): give --public-key for each, or"
                + " a directory of .pub files."},
        footer = {"", "Examples: claimguard verify-result --public-key result-signing.key.pub data/outbox/*.json",
            "          claimguard consume --with-properties | claimguard verify-result --public-key keys/ --lines"},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every result verifies", "1:a result does not verify, or none was read", "2:wrong arguments",
            "3:a file or standard input cannot be read"})
final class VerifyResultCommand implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "FILE",
            description = "result files (their signature in FILE.sig), or with --lines files of JSON lines (- for standard input)")
    private List<Path> files = new ArrayList<>();

    @Option(names = "--public-key", required = true, paramLabel = "FILE|DIR",
            description = "a public key the results may be signed with (a .pub file from keygen or the service), or a"
                + " directory of them; repeatable")
    private List<Path> publicKeys;

    @Option(names = "--lines", description = "read JSON lines (browse, consume --with-properties) from the FILEs or"
            + " standard input")
    private boolean lines;

    @Option(names = "--signature", paramLabel = "BASE64", description = "the signature of the one FILE, instead of FILE.sig")
    private String signature;

    @Option(names = "--key-id", paramLabel = "HEX", description = "the key id of the one FILE, with --signature")
    private String keyId;

    @Spec
    private CommandSpec spec;

    private int verified;
    private int failed;

    @Override
    public Integer call() {
        ResultVerifier verifier = new ResultVerifier(readPublicKeys());
        checkArguments();
        if (lines) {
            List<Path> sources = files.isEmpty() ? List.of(Path.of("-")) : files;
            for (Path source : sources) {
                checkLines(verifier, source);
            }
        } else if (signature != null) {
            Path file = files.get(0);
            report(file.toString(), verifier.check(read(file), keyId, signature));
        } else {
            for (Path file : files) {
                checkFileWithSidecar(verifier, file);
            }
        }
        PrintWriter err = spec.commandLine().getErr();
        int total = verified + failed;
        err.println(total == 0 ? "no result read" : "%d of %d result(s) verified%s".formatted(verified, total,
                failed == 0 ? "" : "; " + failed + " NOT verified"));
        err.flush();
        return total > 0 && failed == 0 ? ExitCodes.OK : ExitCodes.FINDINGS;
    }

    private void checkArguments() {
        if ((signature == null) != (keyId == null)) {
            throw usage("--signature and --key-id go together");
        }
        if (signature != null && (lines || files.size() != 1)) {
            throw usage("--signature and --key-id are the signature of exactly one FILE (not with --lines)");
        }
        if (!lines && files.isEmpty()) {
            throw usage("no FILE: name result files, or give --lines to read JSON lines from standard input");
        }
        if (!lines && files.contains(Path.of("-"))) {
            throw usage("- (standard input) holds JSON lines: add --lines");
        }
    }

    /** Every public key given, from files and from the .pub files of directories. */
    private List<PublicKey> readPublicKeys() {
        List<PublicKey> keys = new ArrayList<>();
        for (Path given : publicKeys) {
            List<Path> keyFiles;
            if (Files.isDirectory(given)) {
                try (Stream<Path> listed = Files.list(given)) {
                    keyFiles = listed.filter(file -> file.getFileName().toString().endsWith(".pub")).sorted().toList();
                } catch (IOException e) {
                    throw new ToolFailure("cannot read the directory " + given, e);
                }
                if (keyFiles.isEmpty()) {
                    throw usage("--public-key " + given + " is a directory without .pub files");
                }
            } else {
                keyFiles = List.of(given);
            }
            for (Path keyFile : keyFiles) {
                try {
                    keys.add(Ed25519Keys.readPublicKey(keyFile));
                } catch (Ed25519Keys.KeyFileException e) {
                    throw usage(e.getMessage());
                }
            }
        }
        return keys;
    }

    private void checkFileWithSidecar(ResultVerifier verifier, Path file) {
        byte[] body = read(file);
        Path sidecar = file.resolveSibling(file.getFileName() + SignedResult.SIDECAR_SUFFIX);
        if (!Files.exists(sidecar)) {
            report(file.toString(), new ResultVerifier.Check(false, "no signature (no " + sidecar.getFileName() + " beside it)"));
            return;
        }
        JsonNode signed = JsonLines.parsed(new String(read(sidecar), StandardCharsets.UTF_8));
        if (signed == null || !signed.isObject()) {
            report(file.toString(), new ResultVerifier.Check(false, "no signature (" + sidecar.getFileName()
                    + " is not the JSON object the service writes)"));
            return;
        }
        report(file.toString(), verifier.check(body, text(signed, ResultProperties.SIGNATURE_KEY_ID),
                text(signed, ResultProperties.SIGNATURE)));
    }

    private void checkLines(ResultVerifier verifier, Path source) {
        boolean standardInput = source.toString().equals("-");
        String name = standardInput ? "standard input" : source.toString();
        try (BufferedReader reader = standardInput
                ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                : Files.newBufferedReader(source, StandardCharsets.UTF_8)) {
            int number = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                number++;
                if (!line.isBlank()) {
                    checkLine(verifier, name + " line " + number, line);
                }
            }
        } catch (IOException e) {
            throw new ToolFailure("cannot read " + name, e);
        }
    }

    private void checkLine(ResultVerifier verifier, String where, String line) {
        JsonNode message = JsonLines.parsed(line);
        if (message == null || !message.isObject()) {
            report(where, new ResultVerifier.Check(false, "not a JSON line as browse or consume --with-properties print"));
            return;
        }
        JsonNode properties = message.path("properties");
        String described = where + describe(properties);
        if (!properties.isObject()) {
            report(described, new ResultVerifier.Check(false,
                    "no signature (a line without properties: take the results with consume --with-properties)"));
            return;
        }
        byte[] body = body(message.path("body_encoding").asString(""), message.path("body"), line);
        if (body == null) {
            report(described, new ResultVerifier.Check(false, "the body is not shown exactly (body_encoding "
                    + message.path("body_encoding").asString("missing") + ")"));
            return;
        }
        report(described, verifier.check(body, text(properties, ResultProperties.SIGNATURE_KEY_ID),
                text(properties, ResultProperties.SIGNATURE)));
    }

    /** The body's exact bytes as the line shows them; null when it does not show them exactly. */
    private static byte[] body(String encoding, JsonNode body, String line) {
        return switch (encoding) {
            case "json" -> rawBody(line);
            case "text" -> body.isString() ? body.stringValue().getBytes(StandardCharsets.UTF_8) : null;
            case "base64" -> {
                try {
                    yield Base64.getDecoder().decode(body.asString(""));
                } catch (IllegalArgumentException e) {
                    yield null;
                }
            }
            default -> null;
        };
    }

    /**
     * The text of the top-level {@code body} value exactly as it stands in the line: browse and consume embed a
     * one-line JSON body as it was sent, and parsing it would write numbers and escapes its own way.
     */
    private static byte[] rawBody(String line) {
        try (JsonParser parser = JsonLines.MAPPER.createParser(line)) {
            parser.nextToken();
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                String field = parser.currentName();
                parser.nextToken();
                if (field.equals("body")) {
                    if (!parser.currentToken().isStructStart()) {
                        // a result is an object; a scalar JSON body is not one
                        return null;
                    }
                    int start = (int) parser.currentTokenLocation().getCharOffset();
                    parser.skipChildren();
                    // the closing bracket is one character
                    int end = (int) parser.currentTokenLocation().getCharOffset() + 1;
                    return line.substring(start, end).getBytes(StandardCharsets.UTF_8);
                }
                parser.skipChildren();
            }
            return null;
        } catch (JacksonException | IndexOutOfBoundsException e) {
            return null;
        }
    }

    private static String describe(JsonNode properties) {
        String requestId = text(properties, ResultProperties.REQUEST_ID);
        String auditId = text(properties, ResultProperties.AUDIT_ID);
        return requestId == null && auditId == null ? "" : " (request_id " + requestId + ", audit_id " + auditId + ")";
    }

    private static String text(JsonNode object, String name) {
        JsonNode value = object.get(name);
        return value == null || value.isNull() ? null : value.asString();
    }

    private void report(String what, ResultVerifier.Check check) {
        PrintWriter out = spec.commandLine().getOut();
        if (check.verified()) {
            verified++;
            out.println("verified: " + what + " (" + check.reason() + ")");
        } else {
            failed++;
            out.println("NOT VERIFIED: " + what + ": " + check.reason());
        }
        out.flush();
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new ToolFailure("cannot read " + file, e);
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
