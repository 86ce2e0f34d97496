package io.logbloom.ingest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import com.google.protobuf.WireFormat;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.xerial.snappy.Snappy;

/**
 * Decodes Loki push bodies into {@link PushStream}s, byte-compatible with Loki's clients.
 *
 * <ul>
 *   <li>{@code application/x-protobuf} (also the default when no content type is sent, as Loki):
 *       a snappy <em>block</em>-compressed {@code logproto.PushRequest} ({@code push.proto}).
 *   <li>{@code application/json}: {@code {"streams":[{"stream":{..},"values":[["<ns>","<line>",{..}]]}]}},
 *       read with Jackson's streaming parser so no intermediate tree is built.
 * </ul>
 *
 * <p>The body must already be gunzipped (Content-Encoding is the HTTP edge's job). The decoded size
 * of a snappy body is checked before decompression against {@code maxDecompressedBytes}, so a tiny
 * body cannot claim gigabytes. Thread-safe: its only state is a decompression buffer per thread.
 */
public final class PushDecoder {
    /** Default bound on a snappy body's decompressed size: Loki's default max recv message size is 100 MiB. */
    public static final long DEFAULT_MAX_DECOMPRESSED_BYTES = 100L << 20;

    private static final JsonFactory JSON = JsonFactory.builder().build();
    private static final byte[] NO_BYTES = new byte[0];
    /** What protobuf says of a string field that is not UTF-8 (as the generated parser's check did). */
    private static final String INVALID_UTF8 = "Protocol message had invalid UTF-8.";

    /** Decompressed bodies up to this size reuse one buffer per thread; larger ones (rare) get their own array. */
    static final int MAX_REUSED_BUFFER_BYTES = 8 << 20;

    private final long maxDecompressedBytes;
    /** Each pushing thread's decompression buffer; reused across calls, so a push allocates no body-sized array. */
    private final ThreadLocal<byte[]> buffers = new ThreadLocal<>();

    /** A decoder with the default decompressed-size bound. */
    public PushDecoder() {
        this(DEFAULT_MAX_DECOMPRESSED_BYTES);
    }

    /** A decoder refusing snappy bodies that would decompress to more than {@code maxDecompressedBytes}. */
    public PushDecoder(long maxDecompressedBytes) {
        if (maxDecompressedBytes <= 0) {
            throw new IllegalArgumentException("maxDecompressedBytes must be positive: " + maxDecompressedBytes);
        }
        this.maxDecompressedBytes = maxDecompressedBytes;
    }

    /** Decodes {@code body} according to {@code contentType} (parameters such as charset are ignored). */
    public List<PushStream> decode(byte[] body, String contentType) throws PushDecodeException {
        String mediaType = contentType == null ? "" : contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return switch (mediaType) {
            case "", "application/x-protobuf" -> decodeProtobuf(body);
            case "application/json" -> decodeJson(body);
            default -> throw new PushDecodeException("unsupported Content-Type '" + contentType
                    + "': expected application/x-protobuf or application/json");
        };
    }

    /** Decodes a snappy block-compressed {@code logproto.PushRequest}. */
    public List<PushStream> decodeProtobuf(byte[] body) throws PushDecodeException {
        byte[] raw;
        int length;
        try {
            // no Snappy.isValidCompressedBuffer first: it is a whole decoding pass (7 % of a push's CPU), and
            // snappy's decompressor checks every copy against the length in the header and fails on a corrupt
            // block (IOException below), as PushDecoderTest's mutated bodies show
            length = Snappy.uncompressedLength(body);
            if (length < 0 || length > maxDecompressedBytes) {
                throw new PushDecodeException("decompressed push body too large: " + Integer.toUnsignedString(length)
                        + " bytes, limit " + maxDecompressedBytes + " bytes");
            }
            raw = scratch(length);
            Snappy.uncompress(body, 0, body.length, raw, 0);
        } catch (IOException e) {
            throw new PushDecodeException("invalid snappy block in protobuf push body: " + e.getMessage(), e);
        }
        try {
            return readPushRequest(CodedInputStream.newInstance(raw, 0, length), new MetadataNames());
        } catch (InvalidProtocolBufferException e) {
            throw new PushDecodeException("invalid protobuf PushRequest: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new PushDecodeException("invalid protobuf PushRequest: " + e.getMessage(), e);
        }
    }

    /**
     * The decompression buffer of the calling thread when {@code length} fits {@link #MAX_REUSED_BUFFER_BYTES},
     * else a new array. Safe to reuse: decoding copies every string and line out of it before the call returns.
     */
    private byte[] scratch(int length) {
        if (length > MAX_REUSED_BUFFER_BYTES) {
            return new byte[length];
        }
        byte[] buffer = buffers.get();
        if (buffer == null || buffer.length < length) {
            buffer = new byte[Math.max(length, 64 << 10)];
            buffers.set(buffer);
        }
        return buffer;
    }

    /*
     * Reads logproto.PushRequest straight from the wire into our records, without the generated
     * message objects (a message, builder, timestamp and iterator per entry were a fifth of the push's
     * garbage). Field numbers and types are push.proto's; unknown fields are skipped as protobuf
     * requires; strings must be valid UTF-8 (proto3), as the generated parser checked before.
     */
    private static List<PushStream> readPushRequest(CodedInputStream in, MetadataNames names)
            throws IOException, PushDecodeException {
        List<PushStream> streams = new ArrayList<>();
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                return streams;
            }
            if (tag == tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
                int limit = in.pushLimit(in.readRawVarint32());
                streams.add(readStream(in, names));
                in.popLimit(limit);
            } else if (!in.skipField(tag)) {
                return streams;
            }
        }
    }

    private static PushStream readStream(CodedInputStream in, MetadataNames names)
            throws IOException, PushDecodeException {
        String labels = "";
        List<LogEntry> entries = new ArrayList<>();
        // the labels field may follow the entries on the wire: range errors name the stream, so they wait for it
        long outOfRangeSeconds = 0;
        boolean outOfRange = false;
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                break;
            }
            if (tag == tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
                labels = in.readStringRequireUtf8();
            } else if (tag == tag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
                int limit = in.pushLimit(in.readRawVarint32());
                try {
                    entries.add(readEntry(in, names));
                } catch (TimestampOutOfRangeException e) {
                    if (!outOfRange) {
                        outOfRange = true;
                        outOfRangeSeconds = e.seconds;
                    }
                }
                in.popLimit(limit);
            } else if (!in.skipField(tag)) {
                break;
            }
        }
        if (outOfRange) {
            throw new PushDecodeException("timestamp out of range for stream '" + labels + "': " + outOfRangeSeconds + "s");
        }
        return new PushStream(labels, entries);
    }

    /** An entry whose timestamp does not fit int64 nanoseconds; thrown once the entry is read to its end. */
    private static final class TimestampOutOfRangeException extends Exception {
        private static final long serialVersionUID = 1L;
        final long seconds;

        TimestampOutOfRangeException(long seconds) {
            super(null, null, false, false);
            this.seconds = seconds;
        }
    }

    private static LogEntry readEntry(CodedInputStream in, MetadataNames names)
            throws IOException, TimestampOutOfRangeException {
        long seconds = 0;
        int nanos = 0;
        byte[] line = NO_BYTES;
        Label firstPair = null; // most entries carry one pair or none: List.of(pair) then, which LogEntry keeps as is
        List<Label> pairs = null;
        while (true) {
            int tag = in.readTag();
            if (tag == 0) {
                break;
            }
            if (tag == tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
                int limit = in.pushLimit(in.readRawVarint32());
                // google.protobuf.Timestamp: seconds = 1 (int64), nanos = 2 (int32); a repeated message field merges
                while (true) {
                    int t = in.readTag();
                    if (t == 0) {
                        break;
                    }
                    if (t == tag(1, WireFormat.WIRETYPE_VARINT)) {
                        seconds = in.readInt64();
                    } else if (t == tag(2, WireFormat.WIRETYPE_VARINT)) {
                        nanos = in.readInt32();
                    } else if (!in.skipField(t)) {
                        break;
                    }
                }
                in.popLimit(limit);
            } else if (tag == tag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
                // kept as the bytes they came in: the write path hashes and stores those, and no String is made
                line = in.readByteArray();
                if (!UnsafeByteOperations.unsafeWrap(line).isValidUtf8()) { // a view of the array, not a copy
                    throw new InvalidProtocolBufferException(INVALID_UTF8);
                }
            } else if (tag == tag(3, WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
                int limit = in.pushLimit(in.readRawVarint32());
                String name = "";
                String value = "";
                while (true) {
                    int t = in.readTag();
                    if (t == 0) {
                        break;
                    }
                    if (t == tag(1, WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
                        name = names.intern(in.readStringRequireUtf8());
                    } else if (t == tag(2, WireFormat.WIRETYPE_LENGTH_DELIMITED)) {
                        value = in.readStringRequireUtf8();
                    } else if (!in.skipField(t)) {
                        break;
                    }
                }
                in.popLimit(limit);
                Label pair = new Label(name, value);
                if (firstPair == null) {
                    firstPair = pair;
                } else {
                    if (pairs == null) {
                        pairs = new ArrayList<>(4);
                        pairs.add(firstPair);
                    }
                    pairs.add(pair);
                }
            } else if (!in.skipField(tag)) {
                break;
            }
        }
        long timestampNanos;
        try {
            timestampNanos = Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), nanos);
        } catch (ArithmeticException e) {
            throw new TimestampOutOfRangeException(seconds);
        }
        return LogEntry.ofUtf8(timestampNanos, line,
                pairs != null ? pairs : firstPair != null ? List.of(firstPair) : List.of());
    }

    /** The wire tag of a field: its number shifted left by 3, or'ed with its wire type. */
    private static int tag(int field, int wireType) {
        return field << 3 | wireType;
    }

    /** Decodes Loki's JSON push format. */
    public List<PushStream> decodeJson(byte[] body) throws PushDecodeException {
        try (JsonParser p = JSON.createParser(body)) {
            expect(p, p.nextToken(), JsonToken.START_OBJECT, "push body");
            List<PushStream> streams = new ArrayList<>();
            boolean sawStreams = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("streams")) {
                    sawStreams = true;
                    expect(p, value, JsonToken.START_ARRAY, "\"streams\"");
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        streams.add(readStream(p));
                    }
                } else {
                    p.skipChildren();
                }
            }
            if (p.nextToken() != null) {
                throw new PushDecodeException("invalid JSON push body: trailing data at offset "
                        + p.currentLocation().getByteOffset());
            }
            if (!sawStreams) {
                throw new PushDecodeException("invalid JSON push body: missing \"streams\"");
            }
            return streams;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new PushDecodeException("invalid JSON push body: " + e.getOriginalMessage() + " at offset "
                    + (e.getLocation() == null ? -1 : e.getLocation().getByteOffset()), e);
        } catch (IOException e) {
            throw new PushDecodeException("invalid JSON push body: " + e.getMessage(), e);
        }
    }

    private static PushStream readStream(JsonParser p) throws IOException, PushDecodeException {
        expect(p, p.currentToken(), JsonToken.START_OBJECT, "stream");
        Map<String, String> labels = null;
        List<LogEntry> entries = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            switch (field) {
                case "stream" -> labels = readStringMap(p, value, "\"stream\"");
                case "values" -> {
                    expect(p, value, JsonToken.START_ARRAY, "\"values\"");
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        entries.add(readValue(p));
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (labels == null) {
            throw new PushDecodeException("invalid JSON push body: stream without \"stream\" labels at offset "
                    + p.currentLocation().getByteOffset());
        }
        return new PushStream(selector(labels), entries);
    }

    private static LogEntry readValue(JsonParser p) throws IOException, PushDecodeException {
        expect(p, p.currentToken(), JsonToken.START_ARRAY, "value [\"<ns>\", \"<line>\"]");
        JsonToken t = p.nextToken();
        if (t != JsonToken.VALUE_STRING) {
            throw new PushDecodeException("invalid JSON push body: timestamp must be a string of nanoseconds at offset "
                    + p.currentLocation().getByteOffset());
        }
        String ts = p.getText();
        long nanos;
        try {
            nanos = Long.parseLong(ts);
        } catch (NumberFormatException e) {
            throw new PushDecodeException("invalid JSON push body: timestamp '" + ts
                    + "' is not an integer number of nanoseconds", e);
        }
        if (p.nextToken() != JsonToken.VALUE_STRING) {
            throw new PushDecodeException("invalid JSON push body: line must be a string at offset "
                    + p.currentLocation().getByteOffset());
        }
        String line = p.getText();
        List<Label> metadata = List.of();
        t = p.nextToken();
        if (t != JsonToken.END_ARRAY) {
            Map<String, String> md = readStringMap(p, t, "structured metadata");
            List<Label> list = new ArrayList<>(md.size());
            md.forEach((k, v) -> list.add(new Label(k, v)));
            metadata = list;
            if (p.nextToken() != JsonToken.END_ARRAY) {
                throw new PushDecodeException("invalid JSON push body: value has more than 3 elements at offset "
                        + p.currentLocation().getByteOffset());
            }
        }
        // encoded once here (a Java string encodes to valid UTF-8): level detection and admission share the bytes
        return LogEntry.ofUtf8(nanos, line.getBytes(StandardCharsets.UTF_8), metadata);
    }

    private static Map<String, String> readStringMap(JsonParser p, JsonToken start, String what)
            throws IOException, PushDecodeException {
        expect(p, start, JsonToken.START_OBJECT, what);
        Map<String, String> map = new TreeMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            if (p.nextToken() != JsonToken.VALUE_STRING) {
                throw new PushDecodeException("invalid JSON push body: " + what + " value of '" + name
                        + "' must be a string");
            }
            map.put(name, p.getText());
        }
        return map;
    }

    private static void expect(JsonParser p, JsonToken actual, JsonToken expected, String what)
            throws PushDecodeException {
        if (actual != expected) {
            throw new PushDecodeException("invalid JSON push body: expected " + describe(expected) + " for " + what
                    + " but found " + (actual == null ? "end of input" : describe(actual)) + " at offset "
                    + p.currentLocation().getByteOffset());
        }
    }

    private static String describe(JsonToken token) {
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            default -> token.asString() == null ? token.name().toLowerCase(Locale.ROOT) : "'" + token.asString() + "'";
        };
    }

    /** Renders a label map in selector syntax with Go escapes, names sorted, as Loki's labels.String(). */
    static String selector(Map<String, String> sortedLabels) {
        StringBuilder sb = new StringBuilder("{");
        boolean first = true;
        for (Map.Entry<String, String> e : sortedLabels.entrySet()) {
            if (!first) {
                sb.append(", ");
            }
            first = false;
            sb.append(e.getKey()).append("=\"");
            LabelsParser.appendEscaped(sb, e.getValue());
            sb.append('"');
        }
        return sb.append('}').toString();
    }

    /**
     * The structured-metadata names of one push body, each kept as one instance: entries repeat a few names, and
     * one instance per name has its hash computed once and lets the buffers' key lookup compare it by identity.
     */
    private static final class MetadataNames {
        private final String[] seen = new String[8];
        private int count;

        String intern(String name) {
            for (int i = 0; i < count; i++) {
                if (seen[i].equals(name)) {
                    return seen[i];
                }
            }
            if (count < seen.length) {
                seen[count++] = name;
            }
            return name;
        }
    }
}
