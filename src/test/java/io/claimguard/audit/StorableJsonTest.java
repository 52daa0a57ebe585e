package io.claimguard.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimguard.domain.Envelope;
import io.claimguard.domain.EnvelopeReader;
import io.claimguard.domain.EnvelopeRejectedException;
import io.claimguard.domain.Limits;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** What is stored of a document that jsonb cannot hold as it came; the IT proves PostgreSQL takes it. */
class StorableJsonTest {

    private static final EnvelopeReader READER = new EnvelopeReader(new Limits(1 << 20, 64));
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    @DisplayName("A document jsonb can hold is stored exactly as it came, text included")
    void storableDocumentIsKeptAsReceived() throws Exception {
        String received = envelope("\"rationale\": \"fine \\u00e9 \\ud83d\\ude00\", \"score\": 1.50, \"small\": 1e-5");
        Envelope envelope = read(received);

        String stored = StorableJson.text(envelope.root(), envelope.json());

        // the surrogate pair's escape sends it through a re-serialisation, which keeps every value
        assertThat(read(stored).root()).isEqualTo(envelope.root());
        Envelope plain = read(envelope("\"rationale\": \"fine\", \"score\": 1.50"));
        assertThat(StorableJson.text(plain.root(), plain.json())).isSameAs(plain.json());
    }

    @Test
    @DisplayName("U+0000 is spelled out and a lone surrogate replaced, in values and in names")
    void nulAndLoneSurrogatesAreSpelledOut() throws Exception {
        Envelope envelope = read(envelope("\"a\\u0000b\": \"x\\u0000y\", \"lone\": \"p\\ud800q\", \"pair\": \"\\ud83d\\ude00\""));

        JsonNode stored = JSON.readTree(StorableJson.text(envelope.root(), envelope.json()));

        assertThat(stored.at("/verifier_output/a\\u0000b").stringValue()).isEqualTo("x\\u0000y");
        assertThat(stored.at("/verifier_output/lone").stringValue()).isEqualTo("p\uFFFDq");
        assertThat(stored.at("/verifier_output/pair").stringValue()).isEqualTo("\ud83d\ude00");
    }

    @Test
    @DisplayName("A U+0000 hidden by a duplicate name is not passed on to jsonb, which would still read it")
    void duplicateNameHidingNulIsReserialised() throws Exception {
        Envelope envelope = read(envelope("\"detail\": \"\\u0000\", \"detail\": \"kept\""));

        String stored = StorableJson.text(envelope.root(), envelope.json());

        assertThat(stored).doesNotContain("\\u0000");
        assertThat(JSON.readTree(stored).at("/verifier_output/detail").stringValue()).isEqualTo("kept");
    }

    @Test
    @DisplayName("Numbers beyond numeric become strings of their digits; a large exponent on a small number is written out")
    void numbersOutOfRange() throws Exception {
        Envelope envelope = read(envelope("\"huge\": 1e200000, \"tiny\": 1e-20000, \"written\": 0.001e1002, \"ok\": 12"));

        String stored = StorableJson.text(envelope.root(), envelope.json());
        JsonNode node = JSON.readTree(stored);

        assertThat(node.at("/verifier_output/huge").stringValue()).isEqualTo("1E+200000");
        assertThat(node.at("/verifier_output/tiny").stringValue()).isEqualTo("1E-20000");
        assertThat(node.at("/verifier_output/written").isNumber()).isTrue();
        assertThat(stored).contains("\"written\":1" + "0".repeat(999));
        assertThat(node.at("/verifier_output/ok").intValue()).isEqualTo(12);
    }

    @Test
    @DisplayName("The scan of the text as received finds every escape and exponent jsonb may refuse")
    void scanFindsWhatJsonbMayRefuse() {
        assertThat(StorableJson.mayBeRefused("{\"a\": \"\\u0000\"}")).isTrue();
        assertThat(StorableJson.mayBeRefused("{\"a\": \"\\uD800\"}")).isTrue();
        assertThat(StorableJson.mayBeRefused("{\"a\": \"\\udfff\"}")).isTrue();
        assertThat(StorableJson.mayBeRefused("{\"a\": 1e1000}")).isTrue();
        assertThat(StorableJson.mayBeRefused("{\"a\": 1E+0001000}")).isTrue();
        assertThat(StorableJson.mayBeRefused("{\"a\": 1e-2000}")).isTrue();
        assertThat(StorableJson.mayBeRefused("{\"a\": \"\\u00e9 \\u0001 \\uc800\", \"b\": 1e999, \"c\": 1e0999, \"d\": \"\\u000\"}")).isFalse();
        assertThat(StorableJson.mayBeRefused("")).isFalse();
    }

    @Test
    @DisplayName("Text columns: U+0000 spelled out, lone surrogates replaced, null kept for nullable columns")
    void textColumns() {
        assertThat(Text.column("a\u0000b\udc00c\ud83d\ude00")).isEqualTo("a\\u0000b\uFFFDc\ud83d\ude00");
        assertThat(Text.column(null)).isNull();
        assertThat(Text.storable(null)).isEmpty();
        assertThat(Text.column("plain")).isEqualTo("plain");
    }

    private static String envelope(String outputFields) {
        return "{\"request_id\": \"r-1\", \"verifier_output\": {\"verdict\": \"PASS\", " + outputFields + "}}";
    }

    private static Envelope read(String text) throws EnvelopeRejectedException {
        return READER.read(text.getBytes(StandardCharsets.UTF_8));
    }
}
