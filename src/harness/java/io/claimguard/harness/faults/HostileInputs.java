package io.claimguard.harness.faults;

import io.claimguard.harness.fuzz.FuzzedInputs;
import io.claimguard.testkit.ExampleEnvelopes;
import io.claimguard.testkit.HarnessInput;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The inputs of a hostile run, made from a seed: files with the names real producers and file systems make (the
 * cases of issue 26: 250 to 255 bytes, a backslash, a line break, every control character, a leading dot or dash,
 * bytes that are not UTF-8, the same letters in NFC and in NFD, random bytes of every length from 1 to 255) and
 * entries that are not files (a symbolic link to a file outside the inbox, a FIFO), mixed with JMS messages; their
 * bodies valid envelopes (some with request_ids that start with dots, some carrying hostile strings), the envelope
 * fuzzer's mutations, random bytes, text that is not JSON and inputs near and over the size limit.
 *
 * @param inputs every input, in the order the harness sends them (files and messages in one list)
 * @param lateCopies byte-identical copies of accepted long-named files, dropped under the same names once the
 *     originals are in {@code .done/}: each must be kept there beside its original under a built name
 */
record HostileInputs(List<HostileInput> inputs, List<HostileInput> lateCopies) {

    /** How an input travels. */
    enum Channel { FILE, JMS }

    /** What the inbox entry is: a regular file, or an entry the service must never open. */
    enum Entry { REGULAR, SYMLINK, FIFO }

    /** What must become of an input. */
    enum Expect {
        /** A valid envelope: one audit row, forwarded once per copy; a file in {@code .done/}. */
        AUDITED,
        /** Certainly not an envelope: one dead_letter row with a rejection reason; a file in {@code .error/}. */
        REJECTED,
        /** A fuzzed envelope: exactly one row, audit or dead_letter, and the file in the folder that row implies. */
        EITHER,
        /** A hidden name or one not ending in {@code .json}: left in the inbox, no row. */
        IGNORED,
        /** A link or FIFO named {@code *.json}: never opened, set aside as {@code file_type.unsupported}. */
        SET_ASIDE
    }

    /**
     * One input.
     *
     * @param name the file name's bytes as written to the inbox (null for a JMS message)
     * @param nameCase which hostile case the name is (for the figures)
     * @param bodyCase which kind of body it carries
     * @param body the bytes sent (empty for a link or FIFO)
     * @param outsideTarget for a link: the file outside the inbox it points to, whose bytes must never be read
     */
    record HostileInput(int number, Channel channel, byte[] name, String nameCase, Entry entry, String bodyCase,
            Expect expect, byte[] body, String sha256, Path outsideTarget) {

        String tag() {
            return "hostile-" + number;
        }

        /** The name as Java, and so the service, reads it: each byte that is not UTF-8 as U+FFFD. */
        String nameAsRead() {
            return new String(name, StandardCharsets.UTF_8);
        }

        boolean bytesMessage() {
            return !Arrays.equals(new String(body, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8), body);
        }

        HarnessInput asJms() {
            return HarnessInput.of(tag(), HarnessInput.Channel.JMS, HarnessInput.Kind.VALID, null, null, body, 0,
                    bytesMessage());
        }
    }

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final byte[] EXTENSION = ".json".getBytes(StandardCharsets.US_ASCII);
    /** Names in the inbox that belong to the service, or that no file can have. */
    private static final Set<String> RESERVED = Set.of(".", "..", ".done", ".error", ".claimguard-leader");
    /** Strings that try to forge log lines, break terminals or confuse parsers. */
    private static final String[] HOSTILE_STRINGS = {
        "line\nbreak verdict=PASS request_id=forged", "\r\n2026-12-04T00:00:00.000Z  INFO forged line", "\u001b[31mred\u001b[0m",
        "tab\there", "quote\" and 'apostrophe'", "back\\slash", "\u2028line separator\u2029", "nul\u0000char",
        "\ud83d\ude00 emoji", "%s %n ${jndi:ldap://x/y}", "\u202eright-to-left", "</script><script>alert(1)</script>"
    };

    /**
     * @param count how many inputs (files and messages); late copies come on top
     * @param outside a folder outside the inbox, where the links' targets are written
     */
    static HostileInputs generate(int count, long seed, Path examples, Path outside) {
        return new Generator(seed, examples, outside).generate(count);
    }

    long count(Expect expect) {
        return inputs.stream().filter(input -> input.expect() == expect).count();
    }

    long files() {
        return inputs.stream().filter(input -> input.channel() == Channel.FILE).count() + lateCopies.size();
    }

    private static final class Generator {

        private final Random random;
        private final List<ObjectNode> examples;
        private final List<byte[]> fuzzed;
        private final Path outside;
        private final Set<String> names = new HashSet<>();
        private final List<HostileInput> longAccepted = new ArrayList<>();
        private int number;
        private int controlCharacter;

        Generator(long seed, Path examples, Path outside) {
            this.random = new Random(seed);
            this.examples = ExampleEnvelopes.load(examples).stream()
                    .map(example -> (ObjectNode) JSON.readTree(example.json())).toList();
            this.fuzzed = FuzzedInputs.sample(512, seed);
            this.outside = outside;
        }

        HostileInputs generate(int count) {
            List<HostileInput> inputs = new ArrayList<>(count);
            while (inputs.size() < count) {
                boolean file = random.nextInt(100) < 65;
                if (file) {
                    inputs.addAll(file());
                } else {
                    Body body = body();
                    inputs.add(input(Channel.JMS, null, "message", Entry.REGULAR, body, body.expect, null));
                }
            }
            // copies of accepted long-named files under their own names, dropped once the originals are done
            List<HostileInput> late = new ArrayList<>();
            for (int i = 0; i < longAccepted.size() && i < Math.max(2, count / 200); i++) {
                HostileInput original = longAccepted.get(i);
                late.add(new HostileInput(++number, Channel.FILE, original.name(), "250 to 255 bytes, copy of a done file",
                        Entry.REGULAR, original.bodyCase(), Expect.AUDITED, original.body(), original.sha256(), null));
            }
            return new HostileInputs(List.copyOf(inputs.subList(0, count)), List.copyOf(late));
        }

        /** One file, or two for the NFC/NFD case. */
        private List<HostileInput> file() {
            int id = number + 1;
            int choice = random.nextInt(100);
            if (choice < 3) {
                return List.of(link(id));
            }
            if (choice < 5) {
                byte[] name = unique(utf8("pipe-" + id + ".json"));
                return List.of(input(Channel.FILE, name, "FIFO named *.json", Entry.FIFO, Body.NONE, Expect.SET_ASIDE, null));
            }
            if (choice < 8) {
                String letters = "\u00e9t\u00e9-" + id;
                Body nfcBody = body();
                Body nfdBody = body();
                return List.of(
                        regular(utf8(Normalizer.normalize(letters, Normalizer.Form.NFC) + ".json"), "NFC", nfcBody),
                        regular(utf8(Normalizer.normalize(letters, Normalizer.Form.NFD) + ".json"), "NFD", nfdBody));
            }
            Body body = body();
            if (choice < 18) {
                HostileInput input = regular(longName(id), "250 to 255 bytes", body);
                if (input.expect() == Expect.AUDITED) {
                    longAccepted.add(input);
                }
                return List.of(input);
            }
            if (choice < 22) {
                return List.of(regular(utf8("a\\b-" + id + ".json"), "backslash", body));
            }
            if (choice < 27) {
                String forged = random.nextBoolean() ? "n\nline-" + id + ".json verdict=PASS x.json" : "line\nbreak-" + id + ".json";
                return List.of(regular(utf8(forged), "line break", body));
            }
            if (choice < 35) {
                char control = (char) nextControlCharacter();
                return List.of(regular(utf8("ctl-" + (int) control + "-" + control + "-" + id + ".json"), "control character",
                        body));
            }
            if (choice < 39) {
                return List.of(regular(utf8((random.nextBoolean() ? "-" : "--help -rf ") + id + ".json"), "leading dash", body));
            }
            if (choice < 43) {
                return List.of(regular(utf8(".hidden-" + id + ".json"), "leading dot", body));
            }
            if (choice < 50) {
                byte[][] bad = {{(byte) 0xff}, {(byte) 0xc0, (byte) 0xaf}, {(byte) 0x80}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
                    {(byte) 0xe2, (byte) 0x82}};
                byte[] name = concat(utf8("bad-" + id + "-"), bad[random.nextInt(bad.length)], EXTENSION);
                return List.of(regular(name, "not UTF-8", body));
            }
            if (choice < 53) {
                String[] other = {".txt", ".json.tmp", ".JSON", ".json~", ""};
                return List.of(regular(utf8("other-" + id + other[random.nextInt(other.length)]), "not *.json", body));
            }
            if (choice < 78) {
                return List.of(regular(randomName(true), "random bytes, *.json", body));
            }
            if (choice < 83) {
                return List.of(regular(randomName(false), "random bytes", body));
            }
            return List.of(regular(unique(utf8("plain-" + id + ".json")), "plain", body));
        }

        private HostileInput link(int id) {
            byte[] name = unique(utf8("evil-" + id + ".json"));
            Path target = outside.resolve("secret-" + id + ".txt");
            return input(Channel.FILE, name, "symbolic link out of the inbox", Entry.SYMLINK, Body.NONE, Expect.SET_ASIDE,
                    target);
        }

        /** A regular file: ignored by its name, or what its body makes it. */
        private HostileInput regular(byte[] name, String nameCase, Body body) {
            byte[] unique = unique(name);
            String asRead = new String(unique, StandardCharsets.UTF_8);
            boolean ignored = asRead.startsWith(".") || !asRead.endsWith(".json");
            return input(Channel.FILE, unique, nameCase, Entry.REGULAR, body, ignored ? Expect.IGNORED : body.expect, null);
        }

        private HostileInput input(Channel channel, byte[] name, String nameCase, Entry entry, Body body, Expect expect,
                Path outsideTarget) {
            number++;
            return new HostileInput(number, channel, name, nameCase, entry, body.kind, expect, body.bytes,
                    HarnessInput.sha256(body.bytes), outsideTarget);
        }

        /** The control characters in turn, so that every one of them is used: 1 to 31 and 127 (NUL cannot be in a name). */
        private int nextControlCharacter() {
            int next = controlCharacter % 32;
            controlCharacter++;
            return next == 0 ? 127 : next;
        }

        /** 250 to 255 bytes ending in .json, some with letters of two or three bytes. */
        private byte[] longName(int id) {
            int length = 250 + random.nextInt(6);
            byte[] start = utf8("long-" + id + "-");
            String filler = random.nextBoolean() ? "x" : random.nextBoolean() ? "\u00e9" : "\u20ac";
            StringBuilder name = new StringBuilder();
            while (start.length + utf8(name + filler).length + EXTENSION.length <= length) {
                name.append(filler);
            }
            while (start.length + utf8(name.toString()).length + EXTENSION.length < length) {
                name.append('x');
            }
            return concat(start, utf8(name.toString()), EXTENSION);
        }

        /** Random bytes but NUL and '/', of a random length from 1 to 255 in all. */
        private byte[] randomName(boolean json) {
            int length = 1 + random.nextInt(255);
            if (json && length < EXTENSION.length + 1) {
                length = EXTENSION.length + 1 + random.nextInt(10);
            }
            int stem = json ? length - EXTENSION.length : length;
            byte[] bytes = new byte[stem];
            for (int i = 0; i < stem; i++) {
                int b;
                do {
                    b = random.nextInt(256);
                } while (b == 0 || b == '/');
                bytes[i] = (byte) b;
            }
            return json ? concat(bytes, EXTENSION) : bytes;
        }

        /** The name, or if it is taken (or reserved) a variant: every entry of a run has its own name. */
        private byte[] unique(byte[] name) {
            byte[] candidate = name;
            int attempt = 0;
            while (RESERVED.contains(key(candidate)) || names.contains(key(candidate))) {
                attempt++;
                candidate = concat(utf8("u" + attempt + "-"), name);
                if (candidate.length > 255) {
                    candidate = Arrays.copyOfRange(candidate, candidate.length - 255, candidate.length);
                    candidate[0] = 'u';
                }
            }
            names.add(key(candidate));
            return candidate;
        }

        /** Names are compared by their bytes. */
        private static String key(byte[] name) {
            return new String(name, StandardCharsets.ISO_8859_1);
        }

        private record Body(String kind, Expect expect, byte[] bytes) {
            static final Body NONE = new Body("none", Expect.SET_ASIDE, new byte[0]);
        }

        private Body body() {
            int choice = random.nextInt(100);
            if (choice < 40) {
                return new Body("valid envelope", Expect.AUDITED, envelope(requestId(), null));
            }
            if (choice < 50) {
                return new Body("valid, hostile strings", Expect.AUDITED,
                        envelope(requestId(), HOSTILE_STRINGS[random.nextInt(HOSTILE_STRINGS.length)]));
            }
            if (choice < 58) {
                String[] dots = {".", "..", "...", ".hidden-"};
                return new Body("valid, request_id starting with dots", Expect.AUDITED,
                        envelope(dots[random.nextInt(dots.length)] + "rid-" + (number + 1) + "-" + random.nextInt(1_000_000), null));
            }
            if (choice < 78) {
                // drawn from a pool: some are sent more than once, byte-identical copies that must make one row
                return new Body("fuzzed", Expect.EITHER, fuzzed.get(random.nextInt(fuzzed.size())));
            }
            if (choice < 88) {
                byte[] bytes = new byte[1 + random.nextInt(2048)];
                random.nextBytes(bytes);
                // starting with '{' + a letter cannot be a complete JSON object, nor anything else valid
                bytes[0] = (byte) 0xfe;
                return new Body("random bytes", Expect.REJECTED, bytes);
            }
            if (choice < 98) {
                return new Body("not JSON", Expect.REJECTED,
                        utf8(HOSTILE_STRINGS[random.nextInt(HOSTILE_STRINGS.length)] + " #" + (number + 1)));
            }
            if (choice < 99) {
                // over the 1 MiB limit: rejected as too_large before anything is decoded
                byte[] bytes = new byte[1_048_577 + random.nextInt(100_000)];
                Arrays.fill(bytes, (byte) 'x');
                return new Body("over the size limit", Expect.REJECTED, bytes);
            }
            return new Body("valid, near the size limit", Expect.AUDITED, envelope(requestId(), "y".repeat(200_000
                    + random.nextInt(600_000))));
        }

        private String requestId() {
            return "hostile-" + (number + 1) + "-" + Integer.toHexString(random.nextInt());
        }

        /** An example envelope with this request_id, and where given this text as the verifier's rationale. */
        private byte[] envelope(String requestId, String rationale) {
            ObjectNode envelope = examples.get(random.nextInt(examples.size())).deepCopy();
            envelope.put("request_id", requestId);
            if (rationale != null && envelope.get("verifier_output") instanceof ObjectNode output) {
                output.put("rationale", rationale);
            }
            return JSON.writeValueAsBytes(envelope);
        }

        private static byte[] utf8(String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }

        private static byte[] concat(byte[]... parts) {
            int length = 0;
            for (byte[] part : parts) {
                length += part.length;
            }
            byte[] all = new byte[length];
            int at = 0;
            for (byte[] part : parts) {
                System.arraycopy(part, 0, all, at, part.length);
                at += part.length;
            }
            return all;
        }
    }
}
