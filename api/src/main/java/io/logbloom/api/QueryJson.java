package io.logbloom.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.logql.Values;
import io.logbloom.querier.IndexStats;
import io.logbloom.querier.QueryStatistics;
import io.logbloom.querier.SeriesVolume;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Loki's v1 JSON response shapes, written with Jackson's streaming generator exactly as Loki's
 * {@code pkg/util/marshal} does: {@code {"status":"success","data":{"resultType":...,"result":[...],
 * "stats":{...}}}}; stream values as {@code ["<ns>","<line>"]}, plus a third object
 * {@code {"structuredMetadata":{...},"parsed":{...}}} in categorize-labels mode; sample timestamps
 * as seconds with millisecond precision (a JSON number) and values as Go's shortest decimal string.
 * Stateless and thread-safe.
 */
final class QueryJson {
    /** The encoding flag Grafana sends to get structured metadata and parsed labels separately. */
    static final String CATEGORIZE_LABELS = "categorize-labels";

    private static final JsonFactory JSON = new JsonFactory();

    /** One entry of a log stream. */
    record EntryOut(long timestampNanos, String line, Map<String, String> structuredMetadata,
            Map<String, String> parsed) {}

    /** One log stream of a result. */
    record StreamOut(Map<String, String> labels, List<EntryOut> entries) {}

    /** One sample of a vector. */
    record SampleOut(Map<String, String> metric, long timestampNanos, double value) {}

    /** One series of a matrix. */
    record SeriesOut(Map<String, String> metric, long[] timestampsNanos, double[] values) {}

    /** Writes JSON into a byte array. */
    @FunctionalInterface
    interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private QueryJson() {}

    static byte[] write(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException("BUG: cannot write JSON to memory", e);
        }
        return out.toByteArray();
    }

    /** {@code {"status":"success","data":{"resultType":"streams","result":[...],"stats":{...}}}}. */
    static byte[] streams(List<StreamOut> streams, boolean categorize, QueryStatistics stats) {
        return result("streams", g -> {
            if (categorize) {
                writeFlags(g);
            }
            g.writeFieldName("result");
            writeStreams(g, streams, categorize);
        }, stats);
    }

    /**
     * Loki's query envelope {@code {"status":"success","data":{"resultType":T, ..., "stats":{...}}}}:
     * {@code fields} writes the data fields between resultType and stats; {@code stats} null leaves
     * the stats object out.
     */
    private static byte[] result(String resultType, Body fields, QueryStatistics stats) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("status", "success");
            g.writeObjectFieldStart("data");
            g.writeStringField("resultType", resultType);
            fields.write(g);
            if (stats != null) {
                writeStats(g, stats);
            }
            g.writeEndObject();
            g.writeEndObject();
        });
    }

    static void writeFlags(JsonGenerator g) throws IOException {
        g.writeArrayFieldStart("encodingFlags");
        g.writeString(CATEGORIZE_LABELS);
        g.writeEndArray();
    }

    static void writeStreams(JsonGenerator g, List<StreamOut> streams, boolean categorize) throws IOException {
        g.writeStartArray();
        for (StreamOut s : streams) {
            g.writeStartObject();
            g.writeFieldName("stream");
            writeMap(g, s.labels());
            g.writeArrayFieldStart("values");
            for (EntryOut e : s.entries()) {
                g.writeStartArray();
                g.writeString(Long.toString(e.timestampNanos()));
                g.writeString(e.line());
                if (categorize) {
                    g.writeStartObject();
                    if (!e.structuredMetadata().isEmpty()) {
                        g.writeFieldName("structuredMetadata");
                        writeMap(g, e.structuredMetadata());
                    }
                    if (!e.parsed().isEmpty()) {
                        g.writeFieldName("parsed");
                        writeMap(g, e.parsed());
                    }
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    /** A matrix result; {@code stats} null leaves the stats object out. */
    static byte[] matrix(List<SeriesOut> series, QueryStatistics stats) {
        return result("matrix", g -> {
            g.writeArrayFieldStart("result");
            for (SeriesOut s : series) {
                g.writeStartObject();
                g.writeFieldName("metric");
                writeMap(g, s.metric());
                g.writeArrayFieldStart("values");
                for (int i = 0; i < s.timestampsNanos().length; i++) {
                    writePoint(g, s.timestampsNanos()[i], s.values()[i]);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
        }, stats);
    }

    /** A vector result; {@code stats} null leaves the stats object out. */
    static byte[] vector(List<SampleOut> samples, QueryStatistics stats) {
        return result("vector", g -> {
            g.writeArrayFieldStart("result");
            for (SampleOut s : samples) {
                writeSample(g, s);
            }
            g.writeEndArray();
        }, stats);
    }

    /** A scalar result. */
    static byte[] scalar(long timestampNanos, double value, QueryStatistics stats) {
        return result("scalar", g -> {
            g.writeFieldName("result");
            writePoint(g, timestampNanos, value);
        }, stats);
    }

    private static void writeSample(JsonGenerator g, SampleOut s) throws IOException {
        g.writeStartObject();
        g.writeFieldName("metric");
        writeMap(g, s.metric());
        g.writeFieldName("value");
        writePoint(g, s.timestampNanos(), s.value());
        g.writeEndObject();
    }

    private static void writePoint(JsonGenerator g, long timestampNanos, double value) throws IOException {
        g.writeStartArray();
        g.writeNumber(seconds(timestampNanos));
        g.writeString(Values.formatValue(value));
        g.writeEndArray();
    }

    /** Seconds with millisecond precision as Prometheus' {@code model.Time.String()}: {@code 4}, {@code 1.5}. */
    static String seconds(long timestampNanos) {
        long millis = Math.floorDiv(timestampNanos, 1_000_000L);
        return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
    }

    static void writeMap(JsonGenerator g, Map<String, String> map) throws IOException {
        g.writeStartObject();
        for (Map.Entry<String, String> e : map.entrySet()) {
            g.writeStringField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }

    /** {@code {"status":"success","data":["a","b"]}}. */
    static byte[] strings(List<String> values) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("status", "success");
            g.writeArrayFieldStart("data");
            for (String v : values) {
                g.writeString(v);
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    /** {@code {"status":"success","data":[{"app":"x"},...]}}. */
    static byte[] series(List<Labels> series) {
        return write(g -> {
            g.writeStartObject();
            g.writeStringField("status", "success");
            g.writeArrayFieldStart("data");
            for (Labels labels : series) {
                g.writeStartObject();
                for (Label l : labels.list()) {
                    g.writeStringField(l.name(), l.value());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    /** Loki's {@code /index/stats} body: {@code {"streams":1,"chunks":2,"bytes":3,"entries":4}}. */
    static byte[] indexStats(IndexStats stats) {
        return write(g -> {
            g.writeStartObject();
            g.writeNumberField("streams", stats.streams());
            g.writeNumberField("chunks", stats.chunks());
            g.writeNumberField("bytes", stats.bytes());
            g.writeNumberField("entries", stats.entries());
            g.writeEndObject();
        });
    }

    /** Loki's volume body: a vector of {@code {"metric":{...},"value":[t,"bytes"]}}, without stats. */
    static byte[] volume(List<SeriesVolume> volumes, long timestampNanos) {
        List<SampleOut> samples = new ArrayList<>(volumes.size());
        for (SeriesVolume v : volumes) {
            samples.add(new SampleOut(v.labels(), timestampNanos, v.bytes()));
        }
        return vector(samples, null);
    }

    /** Loki's volume_range body: a matrix with one point per step, without stats. */
    static byte[] volumeRange(List<SeriesOut> series) {
        return matrix(series, null);
    }

    /**
     * Loki's {@code data.stats} object ({@code pkg/logqlmodel/stats/stats.proto} JSON tags): summary,
     * querier.store, ingester, index (with the bloom numbers), times in Loki's units (execTime in
     * float seconds; download, fetch and bloom times in nanoseconds).
     */
    static void writeStats(JsonGenerator g, QueryStatistics s) throws IOException {
        double execSeconds = s.execTimeNanos() / 1e9;
        g.writeObjectFieldStart("stats");
        g.writeObjectFieldStart("summary");
        g.writeNumberField("bytesProcessedPerSecond", perSecond(s.totalBytesProcessed(), execSeconds));
        g.writeNumberField("linesProcessedPerSecond", perSecond(s.totalLinesProcessed(), execSeconds));
        g.writeNumberField("totalBytesProcessed", s.totalBytesProcessed());
        g.writeNumberField("totalLinesProcessed", s.totalLinesProcessed());
        g.writeNumberField("execTime", execSeconds);
        g.writeNumberField("queueTime", s.queueTimeNanos() / 1e9);
        g.writeNumberField("subqueries", 0);
        g.writeNumberField("totalEntriesReturned", s.totalEntriesReturned());
        g.writeNumberField("splits", 0);
        // Loki counts the shards of a sharded query; Logbloom evaluates a query as one piece, which Loki reports as 0
        g.writeNumberField("shards", 0);
        g.writeNumberField("totalPostFilterLines", s.totalLinesProcessed());
        g.writeNumberField("totalStructuredMetadataBytesProcessed", s.totalStructuredMetadataBytesProcessed());
        g.writeEndObject();

        g.writeObjectFieldStart("querier");
        g.writeObjectFieldStart("store");
        g.writeNumberField("totalChunksRef", s.totalChunksRef());
        g.writeNumberField("totalChunksDownloaded", s.chunksFetched());
        g.writeNumberField("chunksDownloadTime", s.chunksDownloadTimeNanos());
        g.writeBooleanField("queryReferencedStructuredMetadata", s.referencedStructuredMetadata());
        g.writeObjectFieldStart("chunk");
        g.writeNumberField("headChunkBytes", 0);
        g.writeNumberField("headChunkLines", 0);
        g.writeNumberField("decompressedBytes", s.decompressedBytes());
        g.writeNumberField("decompressedLines", s.decompressedLines());
        g.writeNumberField("compressedBytes", s.compressedBytes());
        g.writeNumberField("totalDuplicates", s.totalDuplicates());
        g.writeNumberField("postFilterLines", s.decompressedLines());
        g.writeNumberField("headChunkStructuredMetadataBytes", 0);
        g.writeNumberField("decompressedStructuredMetadataBytes", s.decompressedStructuredMetadataBytes());
        g.writeEndObject();
        g.writeNumberField("chunkRefsFetchTime", s.indexTimeNanos());
        g.writeNumberField("congestionControlLatency", 0);
        g.writeNumberField("pipelineWrapperFilteredLines", 0);
        g.writeEndObject();
        g.writeEndObject();

        g.writeObjectFieldStart("ingester");
        g.writeNumberField("totalReached", s.ingestersReached());
        g.writeNumberField("totalChunksMatched", s.headChunkLines() > 0 ? 1 : 0);
        g.writeNumberField("totalBatches", s.headChunkLines() > 0 ? 1 : 0);
        g.writeNumberField("totalLinesSent", s.headChunkLines());
        g.writeObjectFieldStart("store");
        g.writeNumberField("totalChunksRef", 0);
        g.writeNumberField("totalChunksDownloaded", 0);
        g.writeNumberField("chunksDownloadTime", 0);
        g.writeBooleanField("queryReferencedStructuredMetadata", s.referencedStructuredMetadata());
        g.writeObjectFieldStart("chunk");
        g.writeNumberField("headChunkBytes", s.headChunkBytes());
        g.writeNumberField("headChunkLines", s.headChunkLines());
        g.writeNumberField("decompressedBytes", 0);
        g.writeNumberField("decompressedLines", 0);
        g.writeNumberField("compressedBytes", 0);
        g.writeNumberField("totalDuplicates", 0);
        g.writeNumberField("postFilterLines", s.headChunkLines());
        g.writeNumberField("headChunkStructuredMetadataBytes", s.headChunkStructuredMetadataBytes());
        g.writeNumberField("decompressedStructuredMetadataBytes", 0);
        g.writeEndObject();
        g.writeNumberField("chunkRefsFetchTime", 0);
        g.writeNumberField("congestionControlLatency", 0);
        g.writeNumberField("pipelineWrapperFilteredLines", 0);
        g.writeEndObject();
        g.writeEndObject();

        g.writeObjectFieldStart("index");
        g.writeNumberField("totalChunks", s.totalChunksRef());
        g.writeNumberField("postFilterChunks", s.postFilterChunks());
        g.writeNumberField("shardsDuration", 0);
        g.writeBooleanField("usedBloomFilters", s.usedBloomFilters());
        g.writeNumberField("bloomFilterTime", s.bloomFilterTimeNanos());
        g.writeNumberField("chunksSkipped", s.chunksSkipped());
        g.writeNumberField("bytesSkipped", s.bytesSkipped());
        g.writeNumberField("chunksSkippedByTime", s.chunksSkippedByTime());
        g.writeNumberField("bytesSkippedByTime", s.bytesSkippedByTime());
        g.writeNumberField("chunksFetched", s.chunksFetched());
        g.writeNumberField("chunksFromCache", s.chunksFromCache());
        g.writeNumberField("bloomsLoaded", s.bloomsLoaded());
        g.writeEndObject();
        g.writeEndObject();
    }

    private static long perSecond(long amount, double seconds) {
        return seconds <= 0 ? 0 : (long) (amount / seconds);
    }
}
