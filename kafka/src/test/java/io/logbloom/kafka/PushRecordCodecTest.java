package io.logbloom.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

final class PushRecordCodecTest {
    private static final Labels LABELS = Labels.of("app", "checkout", "env", "prod \"eu\"");

    private static PushRecord sample() {
        return new PushRecord("team-a", LABELS, List.of(
                LogEntry.of(1_700_000_000_000_000_001L, "hello wörld 🌍"),
                new LogEntry(1_700_000_000_000_000_002L, "with metadata",
                        List.of(new Label("trace_id", "abc"), new Label("user", "")))));
    }

    @Test
    void encode_decode_roundTrip() {
        assertThat(PushRecordCodec.decode(PushRecordCodec.encode(sample()))).isEqualTo(sample());
    }

    @Test
    void decode_flippedByte_refusedByChecksum() {
        byte[] bytes = PushRecordCodec.encode(sample());
        for (int i = 3; i < bytes.length; i++) {
            byte[] damaged = bytes.clone();
            damaged[i] ^= 0x10;
            assertThatThrownBy(() -> PushRecordCodec.decode(damaged)).isInstanceOf(RecordFormatException.class);
        }
    }

    @Test
    void decode_keepsLinesAsTheirUtf8_refusesALineThatIsNotUtf8() {
        PushRecord decoded = PushRecordCodec.decode(PushRecordCodec.encode(sample()));
        assertThat(decoded.entries().get(0).utf8Line()).isEqualTo("hello wörld 🌍".getBytes(StandardCharsets.UTF_8));
        // a line byte changed and the checksum made to match: the damage is still named
        byte[] bytes = PushRecordCodec.encode(sample());
        int at = indexOf(bytes, "wörld".getBytes(StandardCharsets.UTF_8)) + 1; // the first byte of ö
        bytes[at] = (byte) 0xff;
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        java.nio.ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
        assertThatThrownBy(() -> PushRecordCodec.decode(bytes)).isInstanceOf(RecordFormatException.class)
                .hasMessageContaining("is not UTF-8");
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }

    @Test
    void encode_sizesStringsExactly_loneSurrogatesAsTheQuestionMarkTheyBecome() {
        String odd = "a\ud800b 😀 é"; // a lone surrogate encodes as '?', one byte
        PushRecord record = new PushRecord("t", Labels.of("app", odd), List.of(
                new LogEntry(1, odd, List.of(new Label("k" + odd, odd)))));
        byte[] bytes = PushRecordCodec.encode(record);
        PushRecord decoded = PushRecordCodec.decode(bytes);
        String asWritten = new String(odd.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
        assertThat(decoded.labels()).isEqualTo(Labels.of("app", asWritten));
        assertThat(decoded.entries().get(0).line()).isEqualTo(asWritten);
        assertThat(decoded.entries().get(0).metadata()).containsExactly(new Label("k" + asWritten, asWritten));
    }

    @Test
    void decode_truncated_refused() {
        byte[] bytes = PushRecordCodec.encode(sample());
        for (int n = 0; n < bytes.length; n++) {
            byte[] cut = Arrays.copyOf(bytes, n);
            assertThatThrownBy(() -> PushRecordCodec.decode(cut)).isInstanceOf(RecordFormatException.class);
        }
    }

    @Test
    void decode_otherVersion_refusedNamingIt() {
        byte[] bytes = PushRecordCodec.encode(sample());
        bytes[2] = 0;
        assertThatThrownBy(() -> PushRecordCodec.decode(bytes)).isInstanceOf(RecordFormatException.class)
                .hasMessageContaining("version 0 is not supported");
    }

    @Test
    void decode_foreignBytes_refused() {
        assertThatThrownBy(() -> PushRecordCodec.decode("{\"streams\":[]}".getBytes()))
                .isInstanceOf(RecordFormatException.class).hasMessageContaining("bad magic");
    }

    @Test
    void encodeSplit_keepsOrderAndBound() {
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            entries.add(LogEntry.of(i, "line " + i + " " + "x".repeat(900)));
        }
        int bound = ClusterConfig.MIN_RECORD_BYTES;
        List<byte[]> records = PushRecordCodec.encodeSplit("t", LABELS, entries, bound);
        assertThat(records).hasSizeGreaterThan(3);
        List<LogEntry> back = new ArrayList<>();
        for (byte[] r : records) {
            assertThat(r.length).isLessThanOrEqualTo(bound);
            PushRecord decoded = PushRecordCodec.decode(r);
            assertThat(decoded.labels()).isEqualTo(LABELS);
            back.addAll(decoded.entries());
        }
        assertThat(back).isEqualTo(entries);
    }

    @Test
    void encodeSplit_entryOverBound_getsOwnRecord() {
        List<LogEntry> entries = List.of(LogEntry.of(1, "a"), LogEntry.of(2, "b".repeat(100_000)), LogEntry.of(3, "c"));
        List<byte[]> records = PushRecordCodec.encodeSplit("t", LABELS, entries, ClusterConfig.MIN_RECORD_BYTES);
        assertThat(records).hasSize(3);
        assertThat(PushRecordCodec.decode(records.get(1)).entries()).containsExactly(entries.get(1));
    }

    @Test
    void unflushedFrames_roundTripAndTruncation() throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.io.DataOutputStream out = new java.io.DataOutputStream(bytes);
        byte[] frame = PushRecordCodec.encode(sample());
        out.writeInt(frame.length);
        out.write(frame);
        out.writeInt(frame.length);
        out.write(frame);
        byte[] answer = bytes.toByteArray();
        assertThat(UnflushedEndpoint.frames(answer)).containsExactly(sample(), sample());
        assertThatThrownBy(() -> UnflushedEndpoint.frames(Arrays.copyOf(answer, answer.length - 1)))
                .isInstanceOf(RecordFormatException.class);
    }

    @Test
    void unflushedRequest_roundTripAndBadInput() {
        UnflushedRequest request = new UnflushedRequest("fake", 1, 2, List.of(
                io.logbloom.index.LabelMatcher.equal("app", "a"),
                io.logbloom.index.LabelMatcher.of(io.logbloom.index.LabelMatcher.MatchType.REGEX, "env", "pr.*")));
        assertThat(UnflushedRequest.fromJson(request.toJson())).isEqualTo(request);
        assertThatThrownBy(() -> UnflushedRequest.fromJson("{\"tenant\":\"x\"}".getBytes()))
                .isInstanceOf(RecordFormatException.class).hasMessageContaining("matchers are required");
        assertThatThrownBy(() -> UnflushedRequest.fromJson(
                "{\"tenant\":\"x\",\"matchers\":[{\"type\":\"LIKE\",\"name\":\"a\",\"value\":\"b\"}]}".getBytes()))
                .isInstanceOf(RecordFormatException.class).hasMessageContaining("LIKE");
    }

    @Test
    void announcement_roundTrip() {
        Announcement a = new Announcement("ingester-1", "ingester", "127.0.0.1:3101", List.of(0, 3), 1234);
        assertThat(Announcement.fromJson(a.toJson())).isEqualTo(a);
        assertThatThrownBy(() -> Announcement.fromJson("nope".getBytes())).isInstanceOf(RecordFormatException.class);
    }
}
