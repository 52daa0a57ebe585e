package io.claimguard.domain;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns the raw bytes of one input into an {@link Envelope}, or says exactly why it cannot.
 *
 * <p>The published JSON Schema ({@code schema/verifier-result-envelope.schema.json}) decides the envelope's
 * shape; code checks only what a schema cannot see: size, UTF-8 and nesting depth. An envelope that
 * {@link SchemaFastPath} proves valid skips the schema call; every other input, and so every rejection of shape,
 * is decided by the schema. Thread-safe.
 */
public final class EnvelopeReader {

    public static final String SCHEMA_RESOURCE = "/schema/verifier-result-envelope.schema.json";
    static final String REQUEST_ID_RULE = "[A-Za-z0-9._:-]{1,128}";
    private static final Pattern REQUEST_ID_CHAR = Pattern.compile("[A-Za-z0-9._:-]");
    private static final char REPLACEMENT_CHARACTER = '\uFFFD';
    private static final Pattern QUOTED_NUMBER = Pattern.compile("\"([-+0-9.eE]+)\"");

    private final Limits limits;
    private final JsonMapper mapper;
    private final Schema schema;
    /** Whether {@link SchemaFastPath} may skip the schema for an envelope it proves valid. */
    private final boolean schemaFastPath;

    public EnvelopeReader(Limits limits) {
        this.limits = limits;
        this.mapper = JsonMapper.builder(JsonFactory.builder()
                        .streamReadConstraints(new DepthReportingConstraints(StreamReadConstraints.builder()
                                .maxNestingDepth(limits.maxDepth())
                                // the byte limit is the only size limit: no string, name or number
                                // below it may be refused by the parser's own defaults
                                .maxStringLength(limits.maxBytes())
                                .maxNameLength(limits.maxBytes())
                                .maxNumberLength(limits.maxBytes())
                                .build()))
                        .build())
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
                .build();
        this.schema = loadSchema();
        this.schemaFastPath = SchemaFastPath.covers(schema.getSchemaNode());
    }

    /** Whether plainly valid envelopes skip the schema call (the schema still decides every other input). */
    boolean usesSchemaFastPath() {
        return schemaFastPath;
    }

    /**
     * Reads one input.
     *
     * @throws EnvelopeRejectedException when the input is not an acceptable envelope; nothing else is thrown
     */
    public Envelope read(byte[] input) throws EnvelopeRejectedException {
        checkSize(input.length);
        String json = stripByteOrderMark(decodeUtf8(input));
        JsonNode root = parse(json);
        if (!(schemaFastPath && SchemaFastPath.certainlyValid(root))) {
            List<Error> errors = schema.validate(root);
            if (!errors.isEmpty()) {
                throw rejectionFor(root, errors);
            }
        }
        return new Envelope(root.get("request_id").stringValue(), json, (ObjectNode) root);
    }

    /**
     * The first check of {@link #read}, on its own: an input of this many bytes is rejected as too large. An intake
     * that does not hold a large input whole (a file) asks this with the input's size.
     *
     * @throws EnvelopeRejectedException {@code too_large} when the size is over {@code claimguard.limits.max-bytes}
     */
    public void checkSize(long bytes) throws EnvelopeRejectedException {
        if (bytes > limits.maxBytes()) {
            throw new EnvelopeRejectedException(RejectionReason.TOO_LARGE, "input is " + bytes
                    + " bytes, larger than the limit of " + limits.maxBytes() + " bytes (claimguard.limits.max-bytes)");
        }
    }

    /**
     * Decodes strict UTF-8. The JDK's {@code new String(bytes, UTF_8)} is fast (vectorised for ASCII) but replaces
     * every malformed sequence with U+FFFD; a result without U+FFFD therefore proves the input well-formed and is
     * exactly what the strict decoder returns. Any U+FFFD, also a legitimate one, goes to the strict decoder, which
     * alone decides rejections and words them.
     */
    static String decodeUtf8(byte[] input) throws EnvelopeRejectedException {
        String text = new String(input, StandardCharsets.UTF_8);
        return text.indexOf(REPLACEMENT_CHARACTER) < 0 ? text : decodeUtf8Strictly(input);
    }

    static String decodeUtf8Strictly(byte[] input) throws EnvelopeRejectedException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer bytes = ByteBuffer.wrap(input);
        CharBuffer chars = CharBuffer.allocate(input.length);
        var result = decoder.decode(bytes, chars, true);
        if (result.isError()) {
            throw new EnvelopeRejectedException(RejectionReason.NOT_UTF8, "input is not valid UTF-8: "
                    + (result.isMalformed() ? "malformed" : "unmappable") + " sequence of " + result.length()
                    + " byte(s) at byte offset " + bytes.position());
        }
        decoder.flush(chars);
        return chars.flip().toString();
    }

    /** RFC 8259 lets a parser ignore a byte order mark; producers on some platforms write one. */
    private static String stripByteOrderMark(String text) {
        return !text.isEmpty() && text.charAt(0) == '\uFEFF' ? text.substring(1) : text;
    }

    private JsonNode parse(String json) throws EnvelopeRejectedException {
        if (json.isBlank()) {
            throw new EnvelopeRejectedException(RejectionReason.NOT_JSON,
                    json.isEmpty() ? "input is empty: expected one JSON object" : "input holds only white space: expected one JSON object");
        }
        try {
            return mapper.readTree(json);
        } catch (NestingTooDeep e) {
            throw new EnvelopeRejectedException(RejectionReason.TOO_DEEP, "input nests objects and arrays deeper than the limit of "
                    + limits.maxDepth() + " levels (claimguard.limits.max-depth)" + where(e.getLocation()));
        } catch (JacksonException e) {
            throw notJson(e);
        } catch (NumberFormatException e) {
            // JSON sets no range on numbers, but an exponent beyond BigDecimal's (e.g. 1e2147483648) cannot be
            // kept, audited or forwarded; Jackson reports it outside its own exception hierarchy.
            throw new EnvelopeRejectedException(RejectionReason.NOT_JSON, "input holds a number that cannot be represented"
                    + unrepresentableNumber(e.getMessage()).map(number -> ": " + number + ", its exponent is out of range").orElse(""));
        }
    }

    private static EnvelopeRejectedException notJson(JacksonException e) {
        return new EnvelopeRejectedException(RejectionReason.NOT_JSON, "input is not valid JSON: "
                + JsonSyntaxProblem.describe(e.getOriginalMessage()) + where(e.getLocation()));
    }

    /** The number Jackson quotes in its message ({@code Value "1e2147483648" cannot be deserialized as ...}), if any. */
    private static Optional<String> unrepresentableNumber(String message) {
        Matcher quoted = QUOTED_NUMBER.matcher(String.valueOf(message));
        return quoted.find() ? Optional.of(JsonSyntaxProblem.abbreviated(quoted.group(1))) : Optional.empty();
    }

    private static String where(TokenStreamLocation location) {
        if (location == null || location.getLineNr() < 1) {
            return "";
        }
        return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }

    /** Turns the schema's findings into the one rejection a producer should fix first. */
    private static EnvelopeRejectedException rejectionFor(JsonNode root, List<Error> errors) {
        if (!root.isObject()) {
            return new EnvelopeRejectedException(RejectionReason.NOT_AN_OBJECT,
                    "input must be a JSON object, got " + describeType(root));
        }
        boolean requestIdWrong = errors.stream().anyMatch(error -> concerns(error, "request_id"));
        if (requestIdWrong) {
            JsonNode requestId = root.get("request_id");
            if (requestId == null) {
                return new EnvelopeRejectedException(RejectionReason.REQUEST_ID_MISSING,
                        "request_id is missing: every envelope needs a request_id matching " + REQUEST_ID_RULE);
            }
            return new EnvelopeRejectedException(RejectionReason.REQUEST_ID_INVALID, describeBadRequestId(requestId));
        }
        JsonNode output = root.get("verifier_output");
        if (output == null) {
            return new EnvelopeRejectedException(RejectionReason.VERIFIER_OUTPUT_MISSING,
                    "verifier_output is missing: every envelope needs the verifier's output as an object");
        }
        if (!output.isObject()) {
            return new EnvelopeRejectedException(RejectionReason.VERIFIER_OUTPUT_NOT_OBJECT,
                    "verifier_output must be a JSON object, got " + describeType(output));
        }
        // The schema has no other constraint; a finding here means the schema and this method disagree.
        throw new IllegalStateException("envelope schema reported an unexpected finding: " + errors.get(0).getMessage());
    }

    private static boolean concerns(Error error, String property) {
        String location = error.getInstanceLocation().toString();
        return location.endsWith("." + property) || location.endsWith("/" + property)
                || ("required".equals(error.getKeyword()) && property.equals(error.getProperty()));
    }

    static String describeBadRequestId(JsonNode requestId) {
        if (!requestId.isString()) {
            return "request_id must be a string matching " + REQUEST_ID_RULE + ", got " + describeType(requestId);
        }
        String value = requestId.stringValue();
        int length = value.codePointCount(0, value.length());
        if (length == 0) {
            return "request_id must match " + REQUEST_ID_RULE + ", got an empty string";
        }
        if (length > 128) {
            return "request_id must match " + REQUEST_ID_RULE + ", got " + length + " characters, more than 128";
        }
        int offending = value.codePoints()
                .filter(cp -> !REQUEST_ID_CHAR.matcher(Character.toString(cp)).matches())
                .findFirst()
                .orElse(-1);
        return "request_id must match " + REQUEST_ID_RULE + ", got " + length + " characters including "
                + quoteCodePoint(offending);
    }

    private static String quoteCodePoint(int codePoint) {
        if (codePoint < 0) {
            return "a character outside the set";
        }
        if (codePoint < 0x20 || codePoint == 0x7F || Character.isWhitespace(codePoint) || !Character.isDefined(codePoint)
                || Character.getType(codePoint) == Character.SURROGATE) {
            return String.format("U+%04X", codePoint);
        }
        return "'" + Character.toString(codePoint) + "'";
    }

    static String describeType(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> node.getNodeType().name().toLowerCase();
        };
    }

    /**
     * The reader's parser constraints, except that a nesting depth beyond the limit is thrown as {@link NestingTooDeep}.
     * Jackson throws the same {@link StreamConstraintsException}, without a location, for every constraint and for its
     * symbol table's hash-collision guard; only this type tells the depth violation apart.
     */
    private static final class DepthReportingConstraints extends StreamReadConstraints {

        private static final long serialVersionUID = 1L;

        DepthReportingConstraints(StreamReadConstraints constraints) {
            super(constraints.getMaxNestingDepth(), constraints.getMaxDocumentLength(), constraints.getMaxTokenCount(),
                    constraints.getMaxNumberLength(), constraints.getMaxStringLength(), constraints.getMaxNameLength());
        }

        @Override
        public void validateNestingDepth(int depth) throws StreamConstraintsException {
            try {
                super.validateNestingDepth(depth);
            } catch (StreamConstraintsException e) {
                throw new NestingTooDeep(e.getOriginalMessage());
            }
        }
    }

    /** The parser's nesting depth exceeded {@link Limits#maxDepth()}. */
    private static final class NestingTooDeep extends StreamConstraintsException {

        private static final long serialVersionUID = 1L;

        NestingTooDeep(String message) {
            super(message);
        }
    }

    private static Schema loadSchema() {
        try (InputStream in = EnvelopeReader.class.getResourceAsStream(SCHEMA_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("envelope schema " + SCHEMA_RESOURCE + " is not on the classpath");
            }
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
