package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.ColumnarBlockInfo;
import io.logbloom.chunks.ColumnarColumnInfo;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.RangeSource;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.SeriesChunks;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bit flips in stored objects, through the real server: a damaged chunk block is left out and the
 * intact blocks still answer (as Loki's chunk reader skips a block whose checksum does not match), a
 * chunk with a damaged header is left out, a damaged series bloom is read as absent (its chunks are
 * read unfiltered, so results stay exact); each is logged and counted in
 * {@code logbloom_querier_corrupt_objects_total}. A damaged index file fails the query with a 500
 * that leaks nothing, and the server stays ready.
 */
final class ServerDamagedObjectsTest {
    private static final String TENANT = "damaged";
    private static final Pattern LINE = Pattern.compile("\"(line-[abc]-\\d+)[^\"]*\"");

    @TempDir
    Path dataDir;

    @Test
    void flippedBytes_inObjectBlockAndBloom_intactDataStillAnswers() throws Exception {
        long ts = TestServer.nowNanos() - 60_000_000_000L;
        queryStart = ts;
        try (TestServer server = TestServer.start(dataDir, "ingester: { chunk_block_size: 2KB }")) {
            pushLines(server, "a", ts, 200);
            pushLines(server, "b", ts, 50);
            pushLines(server, "c", ts, 50);
            assertThat(server.flush().statusCode()).isEqualTo(204);
            ObjectStore store = server.server.objectStore();

            // a: one block of its columnar object damaged -> exactly that block's lines are missing
            ChunkRef a = onlyChunk(server, "a");
            ColumnarObjectReader readerA = new ColumnarObjectReader(RangeSource.ofObject(store, a.objectKey()));
            int streamA = -1;
            for (int i = 0; i < readerA.directory().streams().size(); i++) {
                if ("a".equals(readerA.directory().streams().get(i).labels().get("app"))) {
                    streamA = i;
                }
            }
            List<ColumnarBlockInfo> blocksA = readerA.directory().blocksOf(streamA);
            assertThat(blocksA).hasSizeGreaterThan(2);
            ColumnarBlockInfo damagedBlock = blocksA.get(1);
            flip(store, a.objectKey(), (int) (damagedBlock.offset() + damagedBlock.length() / 2));
            List<String> linesA = lines(query(server, "{app=\"a\"}"));
            assertThat(linesA).hasSize(200 - damagedBlock.rows()).doesNotHaveDuplicates();

            assertThat(server.get("/metrics").body())
                    .containsPattern("logbloom_querier_corrupt_objects_total\\{kind=\"chunk_block\"} [1-9]");

            // b: its bloom damaged -> a needle query is still exact (no skipping for that series). The process that
            // wrote the blooms keeps them as written, so a restarted one reads the damaged bytes.
            for (String key : store.list("blooms/" + TENANT + "/")) {
                byte[] bytes = store.get(key);
                flip(store, key, bytes.length / 2);
            }
            try (TestServer reading = restart(server)) {
                assertThat(lines(query(reading, "{app=\"b\"} |= \"line-b-7 \""))).containsExactly("line-b-7");
                assertThat(lines(query(reading, "{app=~\"a|c\"}"))).hasSize(200 - damagedBlock.rows() + 50);
                assertThat(reading.get("/metrics").body())
                        .containsPattern("logbloom_querier_corrupt_objects_total\\{kind=\"bloom\"} [1-9]");
            }

            // an index file damaged -> the query fails cleanly (which chunks exist is unknown), the server stays up
            for (String key : store.list("index/" + TENANT + "/")) {
                flip(store, key, store.get(key).length / 2);
            }
            try (TestServer restarted = TestServer.start(dataDir, "ingester: { chunk_block_size: 2KB }")) {
                HttpResponse<String> failed = restarted.send(restarted.request(queryPath("{app=\"b\"}", ts))
                        .header(TenantResolver.HEADER, TENANT).GET());
                assertThat(failed.statusCode()).isEqualTo(500);
                assertThat(failed.body()).doesNotContain(dataDir.toString()).doesNotContain("index/");
                assertThat(restarted.get("/ready").statusCode()).isEqualTo(200);
            }
        }
    }

    @Test
    void flippedByte_inAMetadataColumn_leavesTheBlockOutOfLogQueries_butNotOutOfCountsOfItsLines() throws Exception {
        long ts = TestServer.nowNanos() - 60_000_000_000L;
        queryStart = ts;
        try (TestServer server = TestServer.start(dataDir, "ingester: { chunk_block_size: 2KB }")) {
            StringBuilder values = new StringBuilder();
            for (int i = 0; i < 200; i++) {
                values.append(i == 0 ? "" : ",").append("[\"").append(ts + i).append("\",\"line-c-").append(i)
                        .append(' ').append("payload ".repeat(10)).append("\",{\"trace_id\":\"")
                        .append(String.format("%032x", i * 7919L)).append("\"}]");
            }
            assertThat(server.pushJson("{\"streams\":[{\"stream\":{\"app\":\"m\"},\"values\":[" + values + "]}]}",
                    TenantResolver.HEADER, TENANT).statusCode()).isEqualTo(204);
            assertThat(server.flush().statusCode()).isEqualTo(204);
            ObjectStore store = server.server.objectStore();
            ChunkRef m = onlyChunk(server, "m");
            ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofObject(store, m.objectKey()));
            List<ColumnarBlockInfo> blocks = reader.directory().blocksOf(0);
            assertThat(blocks).hasSizeGreaterThan(2);
            ColumnarBlockInfo damagedBlock = blocks.get(1);
            assertThat(damagedBlock.columns()).hasSizeGreaterThan(2);
            ColumnarColumnInfo traceIds = damagedBlock.columns().get(2);
            flip(store, m.objectKey(), (int) (traceIds.offset() + traceIds.length() / 2));

            // a log query reads the metadata: the block is left out, as any damaged block
            assertThat(lines(query(server, "{app=\"m\"}"))).hasSize(200 - damagedBlock.rows());
            // a count of lines reads only the timestamps and lines, which are intact: every line is counted
            String count = "sum(count_over_time({app=\"m\"} |= \"line-c-\" [1m]))";
            HttpResponse<String> counted = server.send(server.request("/loki/api/v1/query?query="
                    + URLEncoder.encode(count, StandardCharsets.UTF_8) + "&time=" + (ts + 1_000_000_000L))
                    .header(TenantResolver.HEADER, TENANT).GET());
            assertThat(counted.statusCode()).as(counted.body()).isEqualTo(200);
            assertThat(counted.body()).contains("\"200\"]");
        }
    }

    private TestServer restart(TestServer server) {
        server.close();
        return TestServer.start(dataDir, "ingester: { chunk_block_size: 2KB }");
    }

    private static void pushLines(TestServer server, String app, long ts, int count) throws Exception {
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < count; i++) {
            values.append(i == 0 ? "" : ",").append("[\"").append(ts + i).append("\",\"line-").append(app).append('-')
                    .append(i).append(' ').append("payload ".repeat(10)).append(i * 7919).append("\"]");
        }
        HttpResponse<String> r = server.pushJson("{\"streams\":[{\"stream\":{\"app\":\"" + app + "\"},\"values\":["
                + values + "]}]}", TenantResolver.HEADER, TENANT);
        assertThat(r.statusCode()).isEqualTo(204);
    }

    private static ChunkRef onlyChunk(TestServer server, String app) throws Exception {
        List<SeriesChunks> series = server.server.ingester().index().chunks(TENANT, List.of(LabelMatcher.equal("app", app)),
                0, Long.MAX_VALUE);
        assertThat(series).hasSize(1);
        assertThat(series.get(0).chunks()).hasSize(1);
        return series.get(0).chunks().get(0);
    }

    private static void flip(ObjectStore store, String key, int offset) throws Exception {
        byte[] bytes = store.get(key);
        bytes[offset] ^= 0x10;
        store.put(key, bytes);
    }

    private long queryStart;

    private static String queryPath(String logql, long ts) {
        return "/loki/api/v1/query_range?limit=5000&direction=forward&query=" + URLEncoder.encode(logql,
                StandardCharsets.UTF_8) + "&start=" + (ts - 1) + "&end=" + (ts + 1_000_000_000L);
    }

    private HttpResponse<String> query(TestServer server, String logql) throws Exception {
        HttpResponse<String> r = server.send(server.request(queryPath(logql, queryStart))
                .header(TenantResolver.HEADER, TENANT).GET());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r;
    }

    private static List<String> lines(HttpResponse<String> response) {
        List<String> lines = new ArrayList<>();
        Matcher m = LINE.matcher(response.body());
        while (m.find()) {
            lines.add(m.group(1));
        }
        return lines;
    }
}
