package io.claimguard.harness.fuzz;

import io.claimguard.testkit.ExampleEnvelopes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Makes hostile variants of valid envelopes, deterministically from a seed: bit flips, truncation, deep nesting,
 * huge strings, wrong types, NUL characters, lone surrogates, duplicate keys and case games on the guarded values.
 * Works on the JSON text, so that it can also make inputs no JSON library would write.
 */
final class EnvelopeMutator {

    /** Values the guard reads, and values that look like them. */
    private static final String[] GUARDED_VALUES = {
        "\"PASS\"", "\"pass\"", "\"PaSs\"", "\"pa\u017Fs\"", "\" PASS\"", "\"LOW_CONFID\"", "\"REJECT\"", "\"MAYBE\"",
        "\"ok\"", "\"OK\"", "\"o\u212A\"", "\"fail\"", "\"FAIL\"", "\"malformed\"", "\"direct_observation\"",
        "\"DIRECT_OBSERVATION\"", "\"contradicted\"", "null", "true", "0", "-1.5e308", "1e999999", "[]", "{}",
        "\"\\u0000\"", "\"\\ud800\"", "\"\\udc00\\ud800\"", "\"evidence.invocation_ref\""
    };
    private static final String[] KEYS = {
        "\"verdict\"", "\"status\"", "\"verification\"", "\"claim_checks\"", "\"facts_checked\"", "\"gatekeeper_result\"",
        "\"executor_output_parse_status\"", "\"failures\"", "\"check\"", "\"claim_type\"", "\"claim_id\"",
        "\"request_id\"", "\"verifier_output\"", "\"verifier_input\"", "\"evidence_refs\""
    };

    private final List<String> seeds;

    EnvelopeMutator(List<String> seeds) {
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("the mutator needs at least one seed envelope");
        }
        this.seeds = List.copyOf(seeds);
    }

    /** The example envelopes of the project, the realistic starting points. */
    static EnvelopeMutator fromExamples(Path examples) {
        return new EnvelopeMutator(ExampleEnvelopes.load(examples).stream().map(ExampleEnvelopes.Example::json).toList());
    }

    /** One to three mutations of one seed. */
    byte[] mutate(SplittableRandom random) {
        String text = seeds.get(random.nextInt(seeds.size()));
        int mutations = 1 + random.nextInt(3);
        byte[] bytes = null;
        for (int i = 0; i < mutations; i++) {
            int kind = random.nextInt(10);
            if (kind < 7) {
                text = mutateText(text, kind, random);
            } else {
                bytes = mutateBytes(bytes == null ? text.getBytes(StandardCharsets.UTF_8) : bytes, kind, random);
                text = new String(bytes, StandardCharsets.UTF_8);
            }
        }
        return bytes != null ? bytes : text.getBytes(StandardCharsets.UTF_8);
    }

    private static String mutateText(String text, int kind, SplittableRandom random) {
        return switch (kind) {
            case 0 -> replaceValueOf(text, pick(KEYS, random), pick(GUARDED_VALUES, random), random);
            case 1 -> duplicateKey(text, pick(KEYS, random), pick(GUARDED_VALUES, random), random);
            case 2 -> replaceValueOf(text, pick(KEYS, random), nested(1 + random.nextInt(120), random), random);
            case 3 -> replaceValueOf(text, "\"rationale\"", hugeString(random), random);
            case 4 -> insertAtRandomQuote(text, pick(new String[] {"\\u0000", "\u0000", "\\ud800", "\\udfff", "\\\\", "\\\""}, random), random);
            case 5 -> replaceValueOf(text, pick(KEYS, random), pick(new String[] {"1", "\"x\"", "[1,2]", "{\"a\":1}", "null", "false"}, random), random);
            default -> text.replace(pick(new String[] {"\"pass\"", "\"ok\"", "\"PASS\"", "\"fail\""}, random),
                    pick(GUARDED_VALUES, random));
        };
    }

    private static byte[] mutateBytes(byte[] bytes, int kind, SplittableRandom random) {
        if (bytes.length == 0) {
            return bytes;
        }
        return switch (kind) {
            case 7 -> {
                byte[] flipped = bytes.clone();
                int flips = 1 + random.nextInt(4);
                for (int i = 0; i < flips; i++) {
                    flipped[random.nextInt(flipped.length)] ^= (byte) (1 << random.nextInt(8));
                }
                yield flipped;
            }
            case 8 -> Arrays.copyOf(bytes, random.nextInt(bytes.length));
            default -> {
                // raw bytes no valid UTF-8 holds: an encoded surrogate, an overlong slash, a stray continuation
                byte[][] invalid = {{(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0x80}, {0}};
                byte[] insert = invalid[random.nextInt(invalid.length)];
                int at = random.nextInt(bytes.length);
                byte[] spliced = new byte[bytes.length + insert.length];
                System.arraycopy(bytes, 0, spliced, 0, at);
                System.arraycopy(insert, 0, spliced, at, insert.length);
                System.arraycopy(bytes, at, spliced, at + insert.length, bytes.length - at);
                yield spliced;
            }
        };
    }

    /** Replaces the value after one occurrence of {@code key:} with {@code value}, if the key occurs. */
    private static String replaceValueOf(String text, String key, String value, SplittableRandom random) {
        List<Integer> occurrences = occurrences(text, key + ":");
        if (occurrences.isEmpty()) {
            occurrences = occurrences(text, key + " :");
        }
        if (occurrences.isEmpty()) {
            return text;
        }
        int keyAt = occurrences.get(random.nextInt(occurrences.size()));
        int valueStart = text.indexOf(':', keyAt) + 1;
        int valueEnd = endOfValue(text, valueStart);
        return text.substring(0, valueStart) + value + text.substring(valueEnd);
    }

    private static String duplicateKey(String text, String key, String value, SplittableRandom random) {
        List<Integer> occurrences = occurrences(text, key + ":");
        if (occurrences.isEmpty()) {
            return text;
        }
        int keyAt = occurrences.get(random.nextInt(occurrences.size()));
        return text.substring(0, keyAt) + key + ":" + value + "," + text.substring(keyAt);
    }

    private static String insertAtRandomQuote(String text, String insert, SplittableRandom random) {
        List<Integer> quotes = occurrences(text, "\"");
        if (quotes.isEmpty()) {
            return text;
        }
        int at = quotes.get(random.nextInt(quotes.size())) + 1;
        return text.substring(0, at) + insert + text.substring(at);
    }

    /** Skips one JSON value roughly: enough to splice, and a wrong guess only makes another hostile input. */
    private static int endOfValue(String text, int from) {
        int depth = 0;
        boolean inString = false;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                    if (depth == 0) {
                        return i + 1;
                    }
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (depth == 0) {
                    return i;
                }
                depth--;
                if (depth == 0) {
                    return i + 1;
                }
            } else if (c == ',' && depth == 0) {
                return i;
            }
        }
        return text.length();
    }

    private static String nested(int depth, SplittableRandom random) {
        boolean[] arrays = new boolean[depth];
        StringBuilder value = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            arrays[i] = random.nextBoolean();
            value.append(arrays[i] ? "[" : "{\"k\":");
        }
        value.append("\"deep\"");
        for (int i = depth - 1; i >= 0; i--) {
            value.append(arrays[i] ? ']' : '}');
        }
        return value.toString();
    }

    private static String hugeString(SplittableRandom random) {
        // now and then just past the size limit; otherwise long but cheap enough to run a million times
        int length = random.nextInt(16) == 0 ? 1_048_576 + random.nextInt(1024) : 1 + random.nextInt(20_000);
        return "\"" + "y".repeat(length) + "\"";
    }

    private static List<Integer> occurrences(String text, String needle) {
        List<Integer> found = new ArrayList<>();
        for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
            found.add(at);
        }
        return found;
    }

    private static String pick(String[] values, SplittableRandom random) {
        return values[random.nextInt(values.length)];
    }
}
