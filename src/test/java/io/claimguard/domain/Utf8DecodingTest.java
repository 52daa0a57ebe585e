package io.claimguard.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The reader's fast UTF-8 path ({@code new String} and a check for U+FFFD) must decide exactly as the strict
 * decoder does: the same text for every input it accepts, and the strict decoder's rejection for every other.
 * Checked on every one- and two-byte input, every three-byte input with a multi-byte lead, four-byte inputs around
 * every boundary of the well-formed ranges, and generated inputs.
 */
class Utf8DecodingTest {

    /** Values at both ends of every continuation-byte range that Unicode's well-formed table distinguishes. */
    private static final int[] BOUNDARIES = {0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF};

    @Test
    @DisplayName("Fast UTF-8 decoding agrees with the strict decoder on every input of up to two bytes")
    void agreesOnEveryShortInput() {
        assertAgrees(new byte[0]);
        for (int b1 = 0; b1 < 256; b1++) {
            assertAgrees(new byte[] {(byte) b1});
            assertAgrees(new byte[] {'{', (byte) b1, '}'});
            for (int b2 = 0; b2 < 256; b2++) {
                assertAgrees(new byte[] {(byte) b1, (byte) b2});
            }
        }
    }

    @Test
    @DisplayName("Fast UTF-8 decoding agrees with the strict decoder on every three-byte input with a multi-byte lead")
    void agreesOnEveryThreeByteInput() {
        byte[] input = new byte[3];
        for (int b1 = 0xC0; b1 < 256; b1++) {
            for (int b2 = 0; b2 < 256; b2++) {
                for (int b3 = 0; b3 < 256; b3++) {
                    input[0] = (byte) b1;
                    input[1] = (byte) b2;
                    input[2] = (byte) b3;
                    assertAgrees(input);
                }
            }
        }
    }

    @Test
    @DisplayName("Fast UTF-8 decoding agrees with the strict decoder on four-byte inputs around every range boundary")
    void agreesOnFourByteInputs() {
        for (int b1 = 0xF0; b1 < 256; b1++) {
            for (int b2 = 0; b2 < 256; b2++) {
                for (int b3 : BOUNDARIES) {
                    for (int b4 : BOUNDARIES) {
                        assertAgrees(new byte[] {(byte) b1, (byte) b2, (byte) b3, (byte) b4});
                        assertAgrees(new byte[] {'a', (byte) b1, (byte) b2, (byte) b3, (byte) b4, 'z'});
                    }
                }
            }
        }
    }

    @Test
    @DisplayName("Fast UTF-8 decoding agrees with the strict decoder on text that holds U+FFFD itself")
    void agreesOnALegitimateReplacementCharacter() {
        byte[] input = "{\"rationale\": \"\uFFFD é 漢字 😀\"}".getBytes(StandardCharsets.UTF_8);

        assertAgrees(input);
        assertThat(decodeOrReject(input, false)).isEqualTo("text: {\"rationale\": \"\uFFFD é 漢字 😀\"}");
    }

    @Test
    @DisplayName("Fast UTF-8 decoding agrees with the strict decoder on generated and mutated envelopes")
    void agreesOnGeneratedInputs() {
        SeededCases.forAll("UTF-8 fast path on arbitrary bytes", GeneratedEnvelopePropertyTest.TRIES,
                GeneratedEnvelopePropertyTest::arbitraryInput, GeneratedEnvelopePropertyTest::printable, Utf8DecodingTest::assertAgrees);
        SeededCases.forAll("UTF-8 fast path on mutated envelopes", GeneratedEnvelopePropertyTest.TRIES,
                gen -> new GeneratedEnvelopePropertyTest.MutatedEnvelope(
                        GeneratedEnvelopePropertyTest.envelope(gen), GeneratedEnvelopePropertyTest.mutations(gen)).bytes(),
                GeneratedEnvelopePropertyTest::printable, Utf8DecodingTest::assertAgrees);
    }

    private static void assertAgrees(byte[] input) {
        String fast = decodeOrReject(input, false);
        String strict = decodeOrReject(input, true);
        if (!fast.equals(strict)) {
            // assertThat(...) per input would dominate the run time of millions of inputs
            throw new AssertionError("fast and strict UTF-8 decoding differ on " + Arrays.toString(input)
                    + ": fast " + fast + ", strict " + strict);
        }
    }

    /** The decoded text, or the rejection as "rejected: " and its description. */
    private static String decodeOrReject(byte[] input, boolean strictly) {
        try {
            return "text: " + (strictly ? EnvelopeReader.decodeUtf8Strictly(input) : EnvelopeReader.decodeUtf8(input));
        } catch (EnvelopeRejectedException rejection) {
            return "rejected: " + rejection.describe();
        }
    }
}
