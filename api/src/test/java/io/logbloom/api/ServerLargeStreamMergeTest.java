package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Timestamp;
import io.logbloom.ingest.proto.PushProto;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One stream far larger than a small heap's share, through the real process boundary: a child server JVM
 * with {@code -Xmx96m} and default merge settings ({@code merge_min_bytes} 32 MB of parts, so one flush merges
 * every part into one object) takes ~40 MB of raw log in ONE stream, then {@code POST /flush} must succeed
 * with no {@code OutOfMemoryError} in the server's log and every line counted by a query. A merge that
 * collected a stream's rows from all its parts in heap needed the whole stream at once and ran out of heap
 * here; the streamed merge holds one decoded block per part. The child's GC log gives the heap after each
 * collection; the largest is printed for the record (not asserted: a timed or heap-sized assertion would be
 * flaky on a shared machine).
 */
final class ServerLargeStreamMergeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final String HEAP = "-Xmx96m";
    /** ~40 MB raw: 200 batches of 1000 lines of ~200 bytes (line and a unique trace id). */
    private static final int BATCHES = 200;
    private static final int LINES_PER_BATCH = 1000;
    private static final Pattern HEAP_AFTER_GC = Pattern.compile("->(\\d+)M\\(\\d+M\\)");

    @TempDir
    Path dir;

    @Test
    void oneStreamOfFortyMegabytes_atSmallHeap_flushesWithoutOom_andEveryLineIsCounted() throws Exception {
        Path config = dir.resolve("config.yaml");
        Files.writeString(config, """
                limits: { ingestion_rate_mb: 100000, ingestion_burst_size_mb: 100000 }
                """);
        Path log = dir.resolve("server.log");
        Path gcLog = dir.resolve("gc.log");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, HEAP, "-XX:+UseG1GC", "-XX:TieredStopAtLevel=1",
                "-Xlog:gc:file=" + gcLog, "-cp", classpath, "io.logbloom.api.Main", "--config", config.toString(),
                "--port", Integer.toString(port), "--data", dir.resolve("data").toString(), "--warmup-lines", "0")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        String base = "http://127.0.0.1:" + port;
        long rawBytes = 0;
        try {
            awaitReady(base, child, log);
            long start = TestServer.nowNanos() - Duration.ofMinutes(5).toNanos();
            Random random = new Random(42);
            for (int batch = 0; batch < BATCHES; batch++) {
                PushProto.StreamAdapter.Builder stream = PushProto.StreamAdapter.newBuilder()
                        .setLabels("{app=\"large\"}");
                for (int i = 0; i < LINES_PER_BATCH; i++) {
                    long ts = start + (long) batch * 1_000_000 + i;
                    StringBuilder line = new StringBuilder("batch=").append(batch).append(" line=").append(i)
                            .append(" msg=\"one stream larger than the heap\" payload=");
                    while (line.length() < 170) {
                        line.append(Long.toHexString(random.nextLong()));
                    }
                    String traceId = String.format("%016x%016x", random.nextLong(), random.nextLong());
                    rawBytes += line.length() + "trace_id".length() + traceId.length();
                    stream.addEntries(PushProto.EntryAdapter.newBuilder()
                            .setTimestamp(Timestamp.newBuilder().setSeconds(ts / 1_000_000_000L)
                                    .setNanos((int) (ts % 1_000_000_000L)))
                            .setLine(line.toString())
                            .addStructuredMetadata(PushProto.LabelPairAdapter.newBuilder().setName("trace_id")
                                    .setValue(traceId)));
                }
                push(base, TestServer.snappyProtobuf(PushProto.PushRequest.newBuilder().addStreams(stream).build()),
                        log);
            }
            assertThat(rawBytes).isGreaterThan(38L << 20);

            HttpResponse<String> flush = send(HttpRequest.newBuilder(URI.create(base + "/flush"))
                    .POST(HttpRequest.BodyPublishers.noBody()));
            assertThat(flush.statusCode()).as("flush: %s%nserver log:%n%s", flush.body(), Files.readString(log))
                    .isEqualTo(204);
            assertThat(send(HttpRequest.newBuilder(URI.create(base + "/ready"))).statusCode()).isEqualTo(200);
            assertThat(count(base)).isEqualTo((long) BATCHES * LINES_PER_BATCH);
            assertThat(child.isAlive()).isTrue();
        } finally {
            child.destroy();
            if (!child.waitFor(30, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
        assertThat(Files.readString(log)).doesNotContain("OutOfMemoryError");
        System.out.printf("ServerLargeStreamMergeTest: %d MB raw in one stream, %s, largest heap after a GC %d MB%n",
                rawBytes >> 20, HEAP, largestHeapAfterGcMegabytes(gcLog));
    }

    /** Pushes one body until it is accepted: a 429 of the memory budget is waited out as its Retry-After says. */
    private static void push(String base, byte[] body, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "/loki/api/v1/push"))
                    .header("Content-Type", "application/x-protobuf")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
            if (r.statusCode() == 204) {
                return;
            }
            assertThat(r.statusCode()).as("push: %s%nserver log:%n%s", r.body(), Files.readString(log)).isEqualTo(429);
            assertThat(System.nanoTime()).as("push still refused after 60 s: %s", r.body()).isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    private static long largestHeapAfterGcMegabytes(Path gcLog) throws IOException {
        long largest = 0;
        for (String line : Files.readAllLines(gcLog)) {
            Matcher m = HEAP_AFTER_GC.matcher(line);
            if (m.find()) {
                largest = Math.max(largest, Long.parseLong(m.group(1)));
            }
        }
        return largest;
    }

    private static long count(String base) throws IOException, InterruptedException {
        String query = URLEncoder.encode("sum(count_over_time({app=\"large\"}[1h]))", StandardCharsets.UTF_8);
        HttpResponse<String> r = send(HttpRequest.newBuilder(URI.create(base + "/loki/api/v1/query?query=" + query
                + "&time=" + TestServer.nowNanos())));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode result = JSON.readTree(r.body()).path("data").path("result");
        return result.isEmpty() ? 0 : Long.parseLong(result.get(0).get("value").get(1).asText());
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return HTTP.send(request.timeout(Duration.ofSeconds(120)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void awaitReady(String base, Process child, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!child.isAlive()) {
                throw new AssertionError("child server exited with " + child.exitValue() + ":\n" + Files.readString(log));
            }
            try {
                if (send(HttpRequest.newBuilder(URI.create(base + "/ready"))).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYetListening) {
                // the child is still starting
            }
            Thread.sleep(100);
        }
        child.destroyForcibly();
        throw new AssertionError("child server not ready within 60s:\n" + Files.readString(log));
    }
}
