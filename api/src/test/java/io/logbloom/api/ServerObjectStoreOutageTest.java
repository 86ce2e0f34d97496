package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.S3TestServer;
import io.logbloom.index.LabelMatcher;
import io.logbloom.ingest.proto.PushProto;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The object store down during flushes, through the real server against a real S3 protocol server
 * (s3proxy) that is stopped while pushes go on and restarted on the same port after many merge retry
 * cycles (small intervals stand for minutes): the backlog stays on local disk within
 * {@code ingester.max_unmerged_bytes}, pushes get 429 with {@code Retry-After} once it is full, the
 * backlog drains when the store is back, and every acknowledged line is stored exactly once while no
 * refused line is stored at all.
 */
final class ServerObjectStoreOutageTest {
    private static final long MAX_UNMERGED_BYTES = 1L << 20;
    private static final int PUSHERS = 2;
    private static final int LINES_PER_PUSH = 100;
    /**
     * What one admitted push may add to the parts on disk past the bound: its rows (lines of about 110
     * bytes, timestamps, offsets), at most as large sealed as pushed; pushes admitted at the same moment
     * may each add this.
     */
    private static final long PUSH_SLACK_BYTES = LINES_PER_PUSH * 140L;
    private static final Pattern MERGE_FAILURES =
            Pattern.compile("(?m)^logbloom_ingest_merge_failures_total ([0-9.E]+)$");
    private static final Pattern UNMERGED_GAUGE = Pattern.compile("(?m)^logbloom_ingest_unmerged_bytes ([0-9.E]+)$");

    @TempDir
    Path dataDir;

    @Test
    void s3StoppedWhilePushing_backlogBoundedOnDisk_429WithRetryAfter_drainsOnRestart_everyAcknowledgedLineOnce()
            throws Exception {
        try (S3TestServer s3 = S3TestServer.start()) {
            String yaml = "storage:\n  backend: s3\n  s3:\n    endpoint: \"" + s3.endpoint() + "\"\n    bucket: "
                    + s3.bucket() + "\n    region: " + S3TestServer.REGION + "\n    access_key_id: "
                    + S3TestServer.ACCESS_KEY + "\n    secret_access_key: " + S3TestServer.SECRET_KEY + "\n"
                    + "ingester: { seal_interval: 20ms, merge_min_bytes: 32KB, flush_check_period: 50ms,"
                    + " max_unmerged_bytes: 1MB, flush_retry_budget: 10m }\n"
                    + "limits: { ingestion_rate_mb: 1000, ingestion_burst_size_mb: 1000 }\n";
            try (TestServer server = TestServer.start(dataDir, yaml)) {
                Set<String> acknowledged = ConcurrentHashMap.newKeySet();
                Set<String> refused = ConcurrentHashMap.newKeySet();
                Map<String, String> unexpected = new ConcurrentHashMap<>();
                AtomicLong backlogRefusals = new AtomicLong();
                AtomicLong peakPartBytes = new AtomicLong();
                AtomicBoolean stop = new AtomicBoolean();
                List<Thread> threads = new ArrayList<>();
                for (int p = 0; p < PUSHERS; p++) {
                    int pusher = p;
                    threads.add(start(() -> push(server, pusher, acknowledged, refused, backlogRefusals, unexpected,
                            stop)));
                }
                threads.add(start(() -> {
                    while (!stop.get()) {
                        peakPartBytes.accumulateAndGet(server.server.ingester().unmergedPartBytes(), Math::max);
                        try {
                            Thread.sleep(1);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }));

                awaitAtLeast(acknowledged, 2_000);
                awaitObjects(s3);
                s3.stop();
                long outageStart = System.nanoTime();
                long deadline = outageStart + Duration.ofSeconds(60).toNanos();
                // stays down for many merge retry cycles (flush_check_period 50 ms), until the backlog refused pushes
                // and until a merge failed: one whose request was in flight when the store went away may wait for
                // the S3 client's socket timeout (30 s) before it fails
                while ((backlogRefusals.get() < 20 || System.nanoTime() - outageStart < Duration.ofSeconds(3).toNanos()
                        || mergeFailures(server.get("/metrics").body()) == 0)
                        && System.nanoTime() < deadline && unexpected.isEmpty()) {
                    Thread.sleep(20);
                }
                int acknowledgedDuringOutage = acknowledged.size();
                assertThat(backlogRefusals.get()).as("pushes refused once the backlog was full").isGreaterThanOrEqualTo(20);
                assertThat(server.get("/ready").statusCode()).as("within the retry budget").isEqualTo(200);
                String outageMetrics = server.get("/metrics").body();
                assertThat(outageMetrics).contains("logbloom_ingest_unmerged_limited_pushes_total");
                assertThat(mergeFailures(outageMetrics)).as("merges failed while the store was down").isPositive();
                // buffered rows count as heap bytes and shrink when sealed into compressed parts: the gauge moves below the bound
                assertThat(unmergedGauge(outageMetrics)).isPositive();

                s3.restart();
                long drainDeadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (acknowledged.size() < acknowledgedDuringOutage + 2_000 && System.nanoTime() < drainDeadline
                        && unexpected.isEmpty()) {
                    Thread.sleep(20);
                }
                stop.set(true);
                for (Thread t : threads) {
                    t.join();
                }
                // the merge loop drains the backlog once the pushes stop (while they go on they keep it near the bound)
                while (server.server.ingester().unmergedBytes() > MAX_UNMERGED_BYTES / 2
                        && System.nanoTime() < drainDeadline) {
                    Thread.sleep(20);
                }
                assertThat(server.server.ingester().unmergedBytes()).as("drained by the merge loop, before any flush")
                        .isLessThanOrEqualTo(MAX_UNMERGED_BYTES / 2);

                assertThat(unexpected).isEmpty();
                assertThat(acknowledged.size()).as("pushes accepted again after the restart")
                        .isGreaterThanOrEqualTo(acknowledgedDuringOutage + 2_000);
                assertThat(peakPartBytes.get()).as("parts on disk within max_unmerged_bytes")
                        .isLessThanOrEqualTo(MAX_UNMERGED_BYTES + PUSHERS * PUSH_SLACK_BYTES);
                assertThat(server.flush().statusCode()).isEqualTo(204);
                assertThat(server.server.ingester().unmergedBytes()).as("drained").isZero();
                assertThat(server.server.ingester().failure()).isEmpty();
                server.assertStoredOnce("fake", LabelMatcher.equal("app", "outage"), acknowledged);
                Set<String> storedRefused = new java.util.HashSet<>();
                server.stored("fake", LabelMatcher.equal("app", "outage")).values()
                        .forEach(entries -> entries.forEach(e -> {
                            if (refused.contains(e.line())) {
                                storedRefused.add(e.line());
                            }
                        }));
                assertThat(storedRefused).as("refused lines stored").isEmpty();
            }
        }
    }

    private static void push(TestServer server, int pusher, Set<String> acknowledged, Set<String> refused,
            AtomicLong backlogRefusals, Map<String, String> unexpected, AtomicBoolean stop) {
        long start = TestServer.nowNanos();
        try {
            for (int batch = 0; !stop.get(); batch++) {
                List<String> lines = new ArrayList<>();
                for (int i = 0; i < LINES_PER_PUSH; i++) {
                    lines.add("pusher=" + pusher + " batch=" + batch + " line=" + i + " msg=\"while the store may be down\" "
                            + "pad=" + "o".repeat(40));
                }
                HttpResponse<String> r = server.pushProtobuf(PushProto.PushRequest.newBuilder()
                        .addStreams(TestServer.protoStream("{app=\"outage\", pusher=\"" + pusher + "\"}",
                                start + (long) batch * LINES_PER_PUSH, lines, Map.of()))
                        .build());
                if (r.statusCode() == 204) {
                    acknowledged.addAll(lines);
                } else if (r.statusCode() == 429 && r.body().contains("ingester.max_unmerged_bytes")
                        && r.headers().firstValue("Retry-After").map(Long::parseLong).orElse(0L) > 0) {
                    refused.addAll(lines);
                    backlogRefusals.incrementAndGet();
                    Thread.sleep(10);
                } else {
                    unexpected.put("pusher " + pusher + " batch " + batch, r.statusCode() + " " + r.body());
                    return;
                }
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            unexpected.put("pusher " + pusher, e.toString());
        }
    }

    private static Thread start(Runnable body) {
        Thread t = new Thread(body);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void awaitAtLeast(Set<String> acknowledged, int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (acknowledged.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(acknowledged.size()).isGreaterThanOrEqualTo(count);
    }

    private static void awaitObjects(S3TestServer s3) throws Exception {
        io.logbloom.chunks.S3ObjectStore bucket = new io.logbloom.chunks.S3ObjectStore(s3.config());
        try (bucket) {
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (bucket.list("fake/objects/").isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(bucket.list("fake/objects/")).as("merged objects in the bucket").isNotEmpty();
        }
    }

    private static double mergeFailures(String metrics) {
        Matcher m = MERGE_FAILURES.matcher(metrics);
        assertThat(m.find()).as("logbloom_ingest_merge_failures_total exposed").isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static double unmergedGauge(String metrics) {
        Matcher m = UNMERGED_GAUGE.matcher(metrics);
        assertThat(m.find()).as("logbloom_ingest_unmerged_bytes exposed").isTrue();
        return Double.parseDouble(m.group(1));
    }
}
