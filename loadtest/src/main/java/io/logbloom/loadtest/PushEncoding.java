package io.logbloom.loadtest;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.google.protobuf.Timestamp;
import io.logbloom.loadtest.proto.PushProto;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.xerial.snappy.Snappy;

/**
 * The body formats Loki's {@code /loki/api/v1/push} accepts.
 *
 * <p>{@link #PROTOBUF} is Loki's {@code logproto.PushRequest} compressed with snappy's block format
 * (what Promtail and Alloy send; Loki expects no {@code Content-Encoding} header for it).
 * {@link #JSON} is {@code {"streams":[{"stream":{...},"values":[["<ns>","<line>",{metadata}]]}]}}
 * and {@link #JSON_GZIP} the same gzip-compressed with {@code Content-Encoding: gzip}.
 *
 * <p>Thread-safe: encoding keeps no state.
 */
public enum PushEncoding {
    /** Snappy-compressed protobuf, {@code application/x-protobuf}. */
    PROTOBUF,
    /** Plain JSON, {@code application/json}. */
    JSON,
    /** Gzip-compressed JSON, {@code application/json} with {@code Content-Encoding: gzip}. */
    JSON_GZIP;

    private static final JsonFactory JSON_FACTORY = new JsonFactory();

    /** Parses a command-line name such as {@code protobuf}, {@code json} or {@code json-gzip}. */
    public static PushEncoding parse(String name) {
        for (PushEncoding encoding : values()) {
            if (encoding.cliName().equals(name.toLowerCase(Locale.ROOT))) {
                return encoding;
            }
        }
        throw new IllegalArgumentException("unknown encoding '" + name + "', expected protobuf, json or json-gzip");
    }

    /** Returns the command-line name of the encoding. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Encodes a batch into a ready-to-send request body. */
    public EncodedPush encode(PushBatch batch) {
        try {
            return switch (this) {
                case PROTOBUF -> new EncodedPush(Snappy.compress(protobuf(batch).toByteArray()),
                        "application/x-protobuf", null, batch.lineCount(), batch.lineBytes(), batch.needle(),
                        batch.oldestNanos(), batch.newestNanos());
                case JSON -> new EncodedPush(json(batch, false), "application/json", null,
                        batch.lineCount(), batch.lineBytes(), batch.needle(),
                        batch.oldestNanos(), batch.newestNanos());
                case JSON_GZIP -> new EncodedPush(json(batch, true), "application/json", "gzip",
                        batch.lineCount(), batch.lineBytes(), batch.needle(),
                        batch.oldestNanos(), batch.newestNanos());
            };
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode push batch as " + cliName() + ": " + e.getMessage(), e);
        }
    }

    /** Builds Loki's protobuf push request for a batch (uncompressed). */
    public static PushProto.PushRequest protobuf(PushBatch batch) {
        PushProto.PushRequest.Builder request = PushProto.PushRequest.newBuilder();
        for (LogStream stream : batch.streams()) {
            PushProto.StreamAdapter.Builder adapter = request.addStreamsBuilder().setLabels(stream.selector());
            for (LogEntry entry : stream.entries()) {
                PushProto.EntryAdapter.Builder e = adapter.addEntriesBuilder()
                        .setTimestamp(Timestamp.newBuilder()
                                .setSeconds(Math.floorDiv(entry.timestampNanos(), 1_000_000_000L))
                                .setNanos((int) Math.floorMod(entry.timestampNanos(), 1_000_000_000L)))
                        .setLine(entry.line());
                for (Map.Entry<String, String> pair : entry.structuredMetadata().entrySet()) {
                    e.addStructuredMetadataBuilder().setName(pair.getKey()).setValue(pair.getValue());
                }
            }
        }
        return request.build();
    }

    private static byte[] json(PushBatch batch, boolean gzip) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(batch.streams().size() * 256 + (int) batch.lineBytes() * 2);
        try (OutputStream out = gzip ? new GZIPOutputStream(bytes, 64 * 1024) : bytes;
                JsonGenerator json = JSON_FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            json.writeStartObject();
            json.writeArrayFieldStart("streams");
            for (LogStream stream : batch.streams()) {
                json.writeStartObject();
                json.writeObjectFieldStart("stream");
                for (Map.Entry<String, String> label : stream.labels().entrySet()) {
                    json.writeStringField(label.getKey(), label.getValue());
                }
                json.writeEndObject();
                json.writeArrayFieldStart("values");
                for (LogEntry entry : stream.entries()) {
                    json.writeStartArray();
                    json.writeString(Long.toString(entry.timestampNanos()));
                    json.writeString(entry.line());
                    if (!entry.structuredMetadata().isEmpty()) {
                        json.writeStartObject();
                        for (Map.Entry<String, String> pair : new java.util.TreeMap<>(entry.structuredMetadata()).entrySet()) {
                            json.writeStringField(pair.getKey(), pair.getValue());
                        }
                        json.writeEndObject();
                    }
                    json.writeEndArray();
                }
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        return bytes.toByteArray();
    }
}
