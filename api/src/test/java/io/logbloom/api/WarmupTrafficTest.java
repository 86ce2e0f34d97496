package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.PushDecoder;
import io.logbloom.ingest.PushStream;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class WarmupTrafficTest {
    private static final long START = 1_700_000_000_000_000_000L;

    @Test
    void bodies_decodeAsSnappyProtobuf_withUniqueTraceIdsAndSpacedTimestamps() throws Exception {
        WarmupTraffic traffic = new WarmupTraffic(7, START);
        List<PushStream> streams = new PushDecoder().decode(traffic.nextBody(1000), "application/x-protobuf");
        assertThat(streams).hasSizeBetween(90, WarmupTraffic.STREAMS);
        Set<String> ids = new HashSet<>();
        Set<Long> times = new HashSet<>();
        int lines = 0;
        for (PushStream stream : streams) {
            assertThat(stream.labels()).startsWith("{job=\"warmup\"");
            for (LogEntry e : stream.entries()) {
                lines++;
                times.add(e.timestampNanos());
                assertThat(e.timestampNanos()).isBetween(START, START + 999 * WarmupTraffic.LINE_INTERVAL_NANOS);
                assertThat(e.metadata()).extracting(Label::name).containsExactly("trace_id");
                assertThat(e.metadata().get(0).value()).hasSize(32);
                ids.add(e.metadata().get(0).value());
                assertThat(e.line()).isNotBlank();
            }
        }
        assertThat(lines).isEqualTo(1000);
        assertThat(ids).hasSize(1000);
        assertThat(times).hasSize(1000);
        assertThat(traffic.endNanos()).isEqualTo(START + 999 * WarmupTraffic.LINE_INTERVAL_NANOS + 1);
    }

    @Test
    void sameSeed_sameBodies() {
        assertThat(new WarmupTraffic(3, START).nextBody(200)).isEqualTo(new WarmupTraffic(3, START).nextBody(200));
        assertThat(new WarmupTraffic(3, START).nextBody(200)).isNotEqualTo(new WarmupTraffic(4, START).nextBody(200));
    }

    @Test
    void queries_mostlyNeedlesOverEverything_andScansInTurnOverWindowsAndOverTheFirstLines() {
        WarmupTraffic traffic = new WarmupTraffic(7, START);
        for (int i = 0; i < 25; i++) {
            traffic.nextBody(1000);
        }
        long end = traffic.endNanos();
        Set<String> windowKinds = new HashSet<>();
        Set<String> wholeKinds = new HashSet<>();
        int needles = 0;
        int queries = 2 * WarmupTraffic.SCAN_SHAPES * WarmupTraffic.NEEDLE_EVERY;
        for (int n = 0; n < queries; n++) {
            WarmupTraffic.WarmupQuery q = traffic.query(n);
            if (n % WarmupTraffic.NEEDLE_EVERY != 0) {
                needles++;
                assertThat(q.logql()).matches("\\{job=\"warmup\"\\} \\| trace_id=\"[0-9a-f]{32}\"");
                assertThat(q.lines()).isEqualTo(1);
                assertThat(q.fromNanos()).isEqualTo(START);
                assertThat(q.toNanos()).isEqualTo(end);
                continue;
            }
            String kind = q.logql().replaceAll("\\[\\d+s\\]", "[r]");
            assertThat(q.lines()).isEqualTo(-1);
            if (n / WarmupTraffic.NEEDLE_EVERY / WarmupTraffic.SCAN_SHAPES == 0) {
                windowKinds.add(kind);
                assertThat(q.fromNanos()).isBetween(START, end);
                assertThat(q.toNanos()).isBetween(q.fromNanos() + 1, end);
                assertThat(q.toNanos() - q.fromNanos()).isLessThanOrEqualTo(WarmupTraffic.SCAN_WINDOW_NANOS);
            } else {
                wholeKinds.add(kind);
                // the first 20 000 of the 25 000 lines pushed
                assertThat(q.fromNanos()).isEqualTo(START);
                assertThat(q.toNanos()).isEqualTo(START + WarmupTraffic.WHOLE_SCAN_NANOS).isLessThan(end);
                if (q.instant()) { // the range vector reaches back over all of them
                    long seconds = Long.parseLong(q.logql().replaceAll("(?s).*\\[(\\d+)s\\].*", "$1"));
                    assertThat(seconds * 1_000_000_000L).isGreaterThanOrEqualTo(WarmupTraffic.WHOLE_SCAN_NANOS);
                }
            }
        }
        assertThat(windowKinds).hasSize(WarmupTraffic.SCAN_SHAPES).isEqualTo(wholeKinds);
        assertThat(windowKinds).anyMatch(k -> k.contains("|= \"timeout\""));
        assertThat(needles).isEqualTo(queries / WarmupTraffic.NEEDLE_EVERY * (WarmupTraffic.NEEDLE_EVERY - 1));
    }

    @Test
    void vocabulary_distinctWordsOfLettersOnly_moreThanAOneByteCodeHolds() {
        String[] words = WarmupTraffic.vocabulary();
        assertThat(words).hasSize(WarmupTraffic.VOCABULARY).doesNotHaveDuplicates().allMatch(w -> w.matches("[a-z]{4,9}"));
        assertThat(WarmupTraffic.VOCABULARY).isGreaterThan(128);
    }

    @Test
    void bodies_carryManyDistinctWords() throws Exception {
        WarmupTraffic traffic = new WarmupTraffic(7, START);
        Set<String> seen = new HashSet<>();
        Set<String> vocabulary = Set.of(WarmupTraffic.vocabulary());
        for (PushStream stream : new PushDecoder().decode(traffic.nextBody(2000), "application/x-protobuf")) {
            for (LogEntry e : stream.entries()) {
                for (String token : e.line().split("[^A-Za-z]+")) {
                    if (vocabulary.contains(token)) {
                        seen.add(token);
                    }
                }
            }
        }
        // a block's dictionary then needs codes of more than one byte, as on real data
        assertThat(seen).hasSizeGreaterThan(200);
    }

    @Test
    void streams_aFewNewPerThousandLines_smallBodiesRenewingInProportion() throws Exception {
        WarmupTraffic full = new WarmupTraffic(7, START);
        Set<String> fullStreams = new HashSet<>();
        for (int b = 0; b < 50; b++) {
            fullStreams.addAll(labels(full.nextBody(WarmupTraffic.BATCH_LINES)));
        }
        // the first body's 100 streams, then about two new ones in each of the other 49 (fewer when one pod is
        // replaced twice in a body: its middle generation pushes nothing)
        assertThat(fullStreams).hasSizeBetween(WarmupTraffic.STREAMS + 80,
                WarmupTraffic.STREAMS + 49 * WarmupTraffic.NEW_STREAMS_PER_BATCH);

        WarmupTraffic small = new WarmupTraffic(7, START);
        Set<String> smallStreams = new HashSet<>();
        for (int b = 0; b < 50 * 100; b++) { // the same 50 000 lines in bodies of 10
            smallStreams.addAll(labels(small.nextBody(10)));
        }
        // as many renewals per line: the streams seen stay within a few dozen of the full bodies' (every pod
        // generation that got a line)
        assertThat(smallStreams.size()).isBetween(fullStreams.size() - 40, fullStreams.size() + 40);
    }

    private static Set<String> labels(byte[] body) throws Exception {
        Set<String> labels = new HashSet<>();
        for (PushStream stream : new PushDecoder().decode(body, "application/x-protobuf")) {
            labels.add(stream.labels());
        }
        return labels;
    }
}
