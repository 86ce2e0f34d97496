package io.logbloom.api;

import com.google.protobuf.Timestamp;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.SeriesChunks;
import io.logbloom.ingest.proto.PushProto;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.xerial.snappy.Snappy;

/**
 * A real {@link LogbloomServer} on 127.0.0.1 and a free port, plus an HTTP client and helpers that
 * build push bodies the way Loki clients do and read back what was flushed to the store. Not thread-safe.
 */
final class TestServer implements AutoCloseable {
    final LogbloomServer server;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final URI base;

    private TestServer(LogbloomServer server) {
        this.server = server;
        this.base = URI.create("http://127.0.0.1:" + server.port());
    }

    /** Starts a server with the YAML {@code yaml} (port 0, data under {@code dataDir}). */
    static TestServer start(Path dataDir, String yaml) {
        return start(LogbloomConfig.parse(yaml, Map.of()).withOverrides(0, "127.0.0.1", dataDir),
                java.util.function.UnaryOperator.identity());
    }

    /** Starts a server with {@code config} (its port and address as given) and its object store wrapped by {@code store}. */
    static TestServer start(LogbloomConfig config, java.util.function.UnaryOperator<io.logbloom.chunks.ObjectStore> store) {
        LogbloomServer server = new LogbloomServer(config, Clock.systemUTC(), store);
        server.start();
        return new TestServer(server);
    }

    /** Wraps an already started server. */
    static TestServer attach(LogbloomServer server) {
        return new TestServer(server);
    }

    static TestServer start(Path dataDir) {
        return start(dataDir, "");
    }

    HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path));
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(request(path).GET());
    }

    HttpResponse<String> post(String path, byte[] body, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = request(path).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return send(b);
    }

    HttpResponse<String> pushJson(String json, String... headers) throws IOException, InterruptedException {
        return post("/loki/api/v1/push", json.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                concat(headers, "Content-Type", "application/json"));
    }

    HttpResponse<String> pushProtobuf(PushProto.PushRequest request, String... headers)
            throws IOException, InterruptedException {
        return post("/loki/api/v1/push", snappyProtobuf(request), concat(headers, "Content-Type", "application/x-protobuf"));
    }

    HttpResponse<String> flush() throws IOException, InterruptedException {
        return post("/flush", new byte[0]);
    }

    /** Every flushed entry of {@code tenant}'s series matching {@code matcher}, per series, read from the store. */
    Map<Labels, List<LogEntry>> stored(String tenant, LabelMatcher matcher) throws IOException {
        return stored(server, tenant, matcher);
    }

    static Map<Labels, List<LogEntry>> stored(LogbloomServer server, String tenant, LabelMatcher matcher)
            throws IOException {
        Map<Labels, List<LogEntry>> result = new LinkedHashMap<>();
        for (SeriesChunks series : server.ingester().index().chunks(tenant, List.of(matcher), 0, Long.MAX_VALUE)) {
            List<LogEntry> entries = new ArrayList<>();
            for (ChunkRef ref : series.chunks()) {
                io.logbloom.chunks.ColumnarObjectReader reader = new io.logbloom.chunks.ColumnarObjectReader(
                        io.logbloom.chunks.RangeSource.ofObject(server.objectStore(), ref.objectKey()));
                entries.addAll(reader.entries(reader.directory().indexOf(series.labels()), 0, Long.MAX_VALUE));
            }
            result.put(series.labels(), entries);
        }
        return result;
    }

    /**
     * Asserts that every line of {@code acknowledged} is stored for {@code tenant}'s series matching
     * {@code matcher} and that no stored line is there twice.
     */
    void assertStoredOnce(String tenant, LabelMatcher matcher, java.util.Collection<String> acknowledged)
            throws IOException {
        Map<String, Integer> counts = new java.util.HashMap<>();
        for (List<LogEntry> entries : stored(tenant, matcher).values()) {
            for (LogEntry e : entries) {
                counts.merge(e.line(), 1, Integer::sum);
            }
        }
        // set differences, not containsAll: AssertJ's contains is linear per element, too slow for 10^5 lines
        java.util.Set<String> missing = new java.util.HashSet<>(acknowledged);
        missing.removeAll(counts.keySet());
        org.assertj.core.api.Assertions.assertThat(missing).as("acknowledged lines not stored").isEmpty();
        Map<String, Integer> duplicated = new java.util.HashMap<>(counts);
        duplicated.values().removeIf(count -> count == 1);
        org.assertj.core.api.Assertions.assertThat(duplicated).as("lines stored more than once").isEmpty();
    }

    static byte[] snappyProtobuf(PushProto.PushRequest request) throws IOException {
        return Snappy.compress(request.toByteArray());
    }

    /** A protobuf stream as a Loki client builds it; {@code lines} get timestamps startNanos, startNanos+1, .... */
    static PushProto.StreamAdapter protoStream(String labels, long startNanos, List<String> lines,
            Map<String, String> metadata) {
        PushProto.StreamAdapter.Builder stream = PushProto.StreamAdapter.newBuilder().setLabels(labels);
        for (int i = 0; i < lines.size(); i++) {
            long ts = startNanos + i;
            PushProto.EntryAdapter.Builder entry = PushProto.EntryAdapter.newBuilder()
                    .setTimestamp(Timestamp.newBuilder().setSeconds(ts / 1_000_000_000L).setNanos((int) (ts % 1_000_000_000L)))
                    .setLine(lines.get(i));
            metadata.forEach((k, v) -> entry.addStructuredMetadata(
                    PushProto.LabelPairAdapter.newBuilder().setName(k).setValue(v)));
            stream.addEntries(entry);
        }
        return stream.build();
    }

    static long nowNanos() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    private static String[] concat(String[] headers, String... more) {
        String[] all = new String[headers.length + more.length];
        System.arraycopy(headers, 0, all, 0, headers.length);
        System.arraycopy(more, 0, all, headers.length, more.length);
        return all;
    }

    @Override
    public void close() {
        server.close();
    }
}
