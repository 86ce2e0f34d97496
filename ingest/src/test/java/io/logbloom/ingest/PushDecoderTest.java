package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.xerial.snappy.Snappy;

final class PushDecoderTest {
    private final PushDecoder decoder = new PushDecoder();

    private static final List<PushStream> GOLDEN = List.of(
            new PushStream("{app=\"api\", env=\"prod\"}", List.of(
                    new LogEntry(1_700_000_000_123_456_789L, "GET /users 200", List.of(new Label("trace_id", "abc123"))),
                    LogEntry.of(1_700_000_001_000_000_000L, "unicode ✓ 😀"))),
            new PushStream("{app=\"db\"}", List.of(LogEntry.of(1_700_000_002_000_000_001L, "slow query"))));

    @Test
    void protobuf_goldenBody_decodesExactly() throws Exception {
        byte[] body = PushBodies.protobuf(GOLDEN);
        assertThat(decoder.decode(body, "application/x-protobuf")).isEqualTo(GOLDEN);
        assertThat(decoder.decode(body, null)).isEqualTo(GOLDEN);
    }

    @Test
    void protobuf_handEncodedBytes_matchLokiFieldNumbers() throws Exception {
        // PushRequest{streams[1]: StreamAdapter{labels[1]="{a=\"b\"}", entries[2]: EntryAdapter{
        //   timestamp[1]: {seconds[1]=1, nanos[2]=2}, line[2]="hi", structuredMetadata[3]: {name[1]="k", value[2]="v"}}}}
        byte[] entry = concat(new byte[] {0x0a, 0x04, 0x08, 0x01, 0x10, 0x02}, bytes(0x12, "hi"),
                new byte[] {0x1a, 0x06}, bytes(0x0a, "k"), bytes(0x12, "v"));
        byte[] stream = concat(bytes(0x0a, "{a=\"b\"}"), new byte[] {0x12, (byte) entry.length}, entry);
        byte[] request = concat(new byte[] {0x0a, (byte) stream.length}, stream);
        List<PushStream> decoded = decoder.decode(Snappy.compress(request), "application/x-protobuf");
        assertThat(decoded).containsExactly(new PushStream("{a=\"b\"}",
                List.of(new LogEntry(1_000_000_002L, "hi", List.of(new Label("k", "v"))))));
    }

    @Test
    void protobuf_labelsAfterEntries_unknownFieldsAndSeveralPairs_decoded() throws Exception {
        // entry: unknown varint field 9, parsed[4] pair (not metadata), two metadata pairs, line before timestamp
        byte[] entry = concat(new byte[] {0x48, 0x07}, bytes(0x12, "hi"), new byte[] {0x22, 0x06}, bytes(0x0a, "p"),
                bytes(0x12, "q"), new byte[] {0x1a, 0x06}, bytes(0x0a, "k"), bytes(0x12, "v"),
                new byte[] {0x1a, 0x06}, bytes(0x0a, "m"), bytes(0x12, "n"), new byte[] {0x0a, 0x02, 0x08, 0x05});
        // stream: the entry, hash[3]=99 (ignored), then labels; request: format[2]="x" before the stream
        byte[] stream = concat(new byte[] {0x12, (byte) entry.length}, entry, new byte[] {0x18, 0x63},
                bytes(0x0a, "{a=\"b\"}"));
        byte[] request = concat(bytes(0x12, "x"), new byte[] {0x0a, (byte) stream.length}, stream);
        List<PushStream> decoded = decoder.decode(Snappy.compress(request), "application/x-protobuf");
        assertThat(decoded).containsExactly(new PushStream("{a=\"b\"}", List.of(new LogEntry(5_000_000_000L, "hi",
                List.of(new Label("k", "v"), new Label("m", "n"))))));
        assertThat(decoder.decode(Snappy.compress(request), "application/x-protobuf")).as("buffer reused").isEqualTo(decoded);
    }

    @Test
    void protobuf_timestampBeyondInt64Nanos_rejectedNamingStream() throws Exception {
        // seconds = 2^62 (varint of 9 bytes), labels after the entry
        byte[] seconds = {0x08, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, 0x40};
        byte[] entry = concat(new byte[] {0x0a, (byte) seconds.length}, seconds, bytes(0x12, "x"));
        byte[] stream = concat(new byte[] {0x12, (byte) entry.length}, entry, bytes(0x0a, "{a=\"b\"}"));
        byte[] request = concat(new byte[] {0x0a, (byte) stream.length}, stream);
        assertThatThrownBy(() -> decoder.decode(Snappy.compress(request), "application/x-protobuf"))
                .isInstanceOf(PushDecodeException.class)
                .hasMessage("timestamp out of range for stream '{a=\"b\"}': 4611686018427387904s");
    }

    @Test
    void protobuf_textOfEveryLengthAndScript_decodesExactly_inEveryStringField() throws Exception {
        // lengths around the eight-byte stride of the ASCII check, a non-ASCII character at each place of the text
        java.util.Random random = new java.util.Random(3);
        String[] others = {"é", "✓", "😀", "\u0000", "\u007f"};
        for (int length = 0; length <= 20; length++) {
            for (int at = -1; at < length; at++) {
                StringBuilder text = new StringBuilder();
                for (int i = 0; i < length; i++) {
                    text.append(i == at ? others[random.nextInt(others.length)] : (char) ('a' + random.nextInt(26)));
                }
                String t = text.toString();
                List<PushStream> streams = List.of(new PushStream("{app=\"" + t + "\"}", List.of(
                        new LogEntry(1_000, t, List.of(new Label("k" + t, t))))));
                assertThat(decoder.decode(PushBodies.protobuf(streams), "application/x-protobuf")).as("text '%s'", t)
                        .isEqualTo(streams);
            }
        }
    }

    @Test
    void protobuf_invalidUtf8_rejectedInEveryStringField_atAnyPlace() throws Exception {
        for (int length = 1; length <= 18; length++) {
            for (int at = 0; at < length; at++) {
                byte[] text = new byte[length];
                java.util.Arrays.fill(text, (byte) 'a');
                text[at] = (byte) 0xff; // never in UTF-8
                byte[] good = "ok".getBytes(StandardCharsets.UTF_8);
                for (int field = 0; field < 4; field++) { // labels, line, metadata name, metadata value
                    byte[] pair = concat(raw(0x0a, field == 2 ? text : good), raw(0x12, field == 3 ? text : good));
                    byte[] entry = concat(raw(0x12, field == 1 ? text : good), new byte[] {0x1a, (byte) pair.length},
                            pair);
                    byte[] stream = concat(raw(0x0a, field == 0 ? text : "{a=\"b\"}".getBytes(StandardCharsets.UTF_8)),
                            new byte[] {0x12, (byte) entry.length}, entry);
                    byte[] request = concat(new byte[] {0x0a, (byte) stream.length}, stream);
                    assertThatThrownBy(() -> decoder.decode(Snappy.compress(request), "application/x-protobuf"))
                            .as("field %d, length %d, bad byte at %d", field, length, at)
                            .isInstanceOf(PushDecodeException.class)
                            .hasMessageStartingWith("invalid protobuf PushRequest")
                            .hasMessageContaining("UTF-8");
                }
            }
        }
    }

    @Test
    void protobuf_invalidUtf8Line_rejected() throws Exception {
        byte[] entry = {0x12, 0x02, (byte) 0xc3, 0x28};
        byte[] stream = concat(bytes(0x0a, "{a=\"b\"}"), new byte[] {0x12, (byte) entry.length}, entry);
        byte[] request = concat(new byte[] {0x0a, (byte) stream.length}, stream);
        assertThatThrownBy(() -> decoder.decode(Snappy.compress(request), "application/x-protobuf"))
                .isInstanceOf(PushDecodeException.class)
                .hasMessageStartingWith("invalid protobuf PushRequest");
    }

    @Test
    void json_goldenBody_decodesWithMetadataAndSortedLabels() throws Exception {
        String json = """
                {"streams":[{"stream":{"env":"prod","app":"api"},"values":[
                  ["1700000000123456789","GET /users 200",{"trace_id":"abc123"}],
                  ["1700000001000000000","unicode \\u2713 😀"]]},
                 {"stream":{"app":"db"},"values":[["1700000002000000001","slow query"]]}]}
                """;
        List<PushStream> decoded = decoder.decode(json.getBytes(StandardCharsets.UTF_8), "application/json; charset=utf-8");
        assertThat(decoded).isEqualTo(GOLDEN);
        // each line is encoded once, by the decoder: level detection and admission get the same bytes
        LogEntry unicode = decoded.get(0).entries().get(1);
        assertThat(unicode.utf8Line()).isSameAs(unicode.utf8Line())
                .isEqualTo("unicode \u2713 😀".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void json_labelValueWithQuotes_escapedInSelector() throws Exception {
        String json = "{\"streams\":[{\"stream\":{\"a\":\"x\\\"y\"},\"values\":[]}]}";
        assertThat(decoder.decode(json.getBytes(StandardCharsets.UTF_8), "application/json"))
                .containsExactly(new PushStream("{a=\"x\\\"y\"}", List.of()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "not json|invalid JSON push body",
        "[]|invalid JSON push body: expected an object for push body but found an array",
        "{}|invalid JSON push body: missing \"streams\"",
        "{\"streams\":[{\"values\":[]}]}|invalid JSON push body: stream without \"stream\" labels",
        "{\"streams\":[{\"stream\":{\"a\":\"b\"},\"values\":[[1,\"x\"]]}]}|invalid JSON push body: timestamp must be a string",
        "{\"streams\":[{\"stream\":{\"a\":\"b\"},\"values\":[[\"12x\",\"x\"]]}]}|invalid JSON push body: timestamp '12x' is not an integer",
        "{\"streams\":[{\"stream\":{\"a\":\"b\"},\"values\":[[\"1\",2]]}]}|invalid JSON push body: line must be a string",
        "{\"streams\":[{\"stream\":{\"a\":1},\"values\":[]}]}|invalid JSON push body: \"stream\" value of 'a' must be a string",
        "{\"streams\":[]} x|invalid JSON push body",
    })
    void json_malformed_clearMessage(String body, String message) {
        assertThatThrownBy(() -> decoder.decode(body.getBytes(StandardCharsets.UTF_8), "application/json"))
                .isInstanceOf(PushDecodeException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void protobuf_notSnappy_rejected() {
        assertThatThrownBy(() -> decoder.decode("plain text".getBytes(StandardCharsets.UTF_8), "application/x-protobuf"))
                .isInstanceOf(PushDecodeException.class)
                .hasMessageContaining("invalid snappy block");
    }

    @Test
    void protobuf_mutatedSnappyBodies_decodeOrFailWithAClearError_neverCrash() throws Exception {
        List<LogEntry> entries = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            entries.add(new LogEntry(1_700_000_000_000_000_000L + i, "level=info msg=\"request " + i + " done\" status=200",
                    List.of(new Label("trace_id", Long.toHexString(i * 0x9E3779B97F4A7C15L)))));
        }
        byte[] valid = PushBodies.protobuf(List.of(new PushStream("{app=\"shop\"}", entries)));
        assertThat(decoder.decode(valid, "application/x-protobuf")).hasSize(1);
        java.util.SplittableRandom random = new java.util.SplittableRandom(5);
        int rejected = 0;
        for (int n = 0; n < 3_000; n++) {
            byte[] body = switch (n % 3) {
                case 0 -> { // flipped bytes, the length header included
                    byte[] b = valid.clone();
                    for (int k = 1 + random.nextInt(4); k > 0; k--) {
                        b[random.nextInt(b.length)] ^= (byte) (1 + random.nextInt(255));
                    }
                    yield b;
                }
                case 1 -> java.util.Arrays.copyOf(valid, random.nextInt(valid.length)); // truncated
                default -> { // a valid header before random bytes: copies reaching before the start or past the end
                    byte[] b = valid.clone();
                    for (int i = 4; i < b.length; i++) {
                        if (random.nextInt(8) == 0) {
                            b[i] = (byte) random.nextInt(256);
                        }
                    }
                    yield b;
                }
            };
            try {
                decoder.decode(body, "application/x-protobuf");
            } catch (PushDecodeException e) {
                assertThat(e.getMessage()).matches("(?s)(invalid snappy block|invalid protobuf PushRequest|decompressed push"
                        + " body too large).*");
                rejected++;
            }
        }
        assertThat(rejected).as("most mutations must be caught").isGreaterThan(2_000);
    }

    @Test
    void protobuf_snappyOfGarbage_rejected() throws Exception {
        byte[] body = Snappy.compress(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff});
        assertThatThrownBy(() -> decoder.decode(body, "application/x-protobuf"))
                .isInstanceOf(PushDecodeException.class)
                .hasMessageStartingWith("invalid protobuf PushRequest");
    }

    @Test
    void protobuf_decompressedSizeOverLimit_rejectedBeforeDecompressing() throws Exception {
        byte[] body = Snappy.compress(new byte[10_000]);
        assertThatThrownBy(() -> new PushDecoder(1_000).decode(body, "application/x-protobuf"))
                .isInstanceOf(PushDecodeException.class)
                .hasMessage("decompressed push body too large: 10000 bytes, limit 1000 bytes");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(longs = {1, 2, 3})
    void protobuf_truncatedOrFlippedBodies_decodeOrRejectedWithDecodeExceptionOnly(long seed) throws Exception {
        // every damaged body either decodes (a flip inside a line or a skipped field) or is a PushDecodeException,
        // which the HTTP edge answers with 400: never another exception, which would be a 500
        byte[] request = Snappy.uncompress(PushBodies.protobuf(GOLDEN));
        java.util.Random random = new java.util.Random(seed);
        int rejected = 0;
        for (int i = 0; i < 2000; i++) {
            byte[] damaged = random.nextBoolean()
                    ? java.util.Arrays.copyOf(request, random.nextInt(request.length))
                    : request.clone();
            for (int flips = random.nextInt(4); flips > 0 && damaged.length > 0; flips--) {
                damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
            }
            byte[] body = random.nextInt(10) == 0 ? damaged : Snappy.compress(damaged);
            try {
                decoder.decode(body, "application/x-protobuf");
            } catch (PushDecodeException e) {
                assertThat(e.getMessage()).isNotBlank();
                rejected++;
            }
        }
        assertThat(rejected).isGreaterThan(100);
    }

    @Test
    void unsupportedContentType_rejected() {
        assertThatThrownBy(() -> decoder.decode(new byte[0], "text/plain"))
                .isInstanceOf(PushDecodeException.class)
                .hasMessageStartingWith("unsupported Content-Type 'text/plain'");
    }

    private static byte[] raw(int tag, byte[] b) {
        return concat(new byte[] {(byte) tag, (byte) b.length}, b);
    }

    private static byte[] bytes(int tag, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return concat(new byte[] {(byte) tag, (byte) b.length}, b);
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int o = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, o, p.length);
            o += p.length;
        }
        return out;
    }
}
