package io.logbloom.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.StreamSnapshot;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The ingester's side of a strong read: which requested partitions it answers for. */
final class UnflushedEndpointTest {
    private final AtomicReference<Duration> waited = new AtomicReference<>();

    private UnflushedEndpoint endpoint(ConsumedOffsets.CatchUp progress) {
        return new UnflushedEndpoint((tenant, matchers, from, through) -> new io.logbloom.ingest.Ingester.Unflushed(
                List.of(new StreamSnapshot(Labels.of("app", "a"), List.of(LogEntry.of(5, "row")))), () -> {}),
                () -> (targets, maxWait) -> {
                    waited.set(maxWait);
                    return progress;
                });
    }

    private static byte[] request(Map<Integer, Long> offsets) {
        return new UnflushedRequest("t", 0, 100, List.of(), offsets, 250).toJson();
    }

    @Test
    void strongRequest_namesOnlyOwnedCaughtUpPartitions() throws Exception {
        // owns 0 and 2 of the requested 0, 1, 2: partition 1 is not its own and must not be answered for
        UnflushedEndpoint.Answer answer = endpoint(new ConsumedOffsets.CatchUp(Set.of(2, 0), Map.of()))
                .answer(request(Map.of(0, 4L, 1, 9L, 2, 1L)));
        assertThat(answer.partitionsHeader()).isEqualTo("0,2");
        assertThat(UnflushedEndpoint.partitions(answer.partitionsHeader())).containsExactly(0, 2);
        assertThat(UnflushedEndpoint.frames(answer.body())).singleElement()
                .satisfies(r -> assertThat(r.entries()).extracting(LogEntry::line).containsExactly("row"));
        assertThat(waited.get()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void noPartitionOwned_emptyHeader_rowsStillServed() throws Exception {
        UnflushedEndpoint.Answer answer = endpoint(new ConsumedOffsets.CatchUp(Set.of(), Map.of()))
                .answer(request(Map.of(1, 9L)));
        assertThat(answer.partitionsHeader()).isEmpty();
        assertThat(UnflushedEndpoint.partitions(answer.partitionsHeader())).isEmpty();
        assertThat(UnflushedEndpoint.frames(answer.body())).hasSize(1);
    }

    @Test
    void ownedPartitionBehind_503NamingIt() {
        assertThatThrownBy(() -> endpoint(new ConsumedOffsets.CatchUp(Set.of(0), Map.of(1, 3L)))
                .answer(request(Map.of(0, 4L, 1, 9L))))
                .isInstanceOf(NotCaughtUpException.class)
                .hasMessageContaining("{1=3}")
                .hasMessageContaining("{0=4, 1=9}");
    }

    @Test
    void eventualRequest_doesNotWait_answersForNoPartition() throws Exception {
        UnflushedEndpoint.Answer answer = endpoint(new ConsumedOffsets.CatchUp(Set.of(0), Map.of()))
                .answer(new UnflushedRequest("t", 0, 100, List.of()).toJson());
        assertThat(waited.get()).isNull();
        assertThat(answer.caughtUp()).isEmpty();
    }

    @Test
    void partitionsHeader_absentIsNone_garbageRejected() {
        assertThat(UnflushedEndpoint.partitions(null)).isEmpty();
        assertThat(UnflushedEndpoint.partitions("3, 1")).containsExactly(1, 3);
        assertThatThrownBy(() -> UnflushedEndpoint.partitions("1,x")).isInstanceOf(RecordFormatException.class)
                .hasMessageContaining(UnflushedEndpoint.PARTITIONS_HEADER);
        assertThatThrownBy(() -> UnflushedEndpoint.partitions("-1")).isInstanceOf(RecordFormatException.class);
    }

    @Test
    void badRequest_rejectedWithReason() {
        assertThatThrownBy(() -> endpoint(new ConsumedOffsets.CatchUp(Set.of(), Map.of()))
                .answer("{\"tenant\":\"t\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(RecordFormatException.class).hasMessageContaining("matchers are required");
    }

    @Test
    void askedForIndexFiles_namesThemAfterTheFrames_readAfterTheRows() throws Exception {
        java.util.concurrent.atomic.AtomicLong millis = new java.util.concurrent.atomic.AtomicLong(1_000);
        io.logbloom.index.RecentIndexFiles recent = new io.logbloom.index.RecentIndexFiles(
                () -> java.time.Instant.ofEpochMilli(millis.get()));
        recent.written("index/t/1/before.idx");
        recent.written("index/u/1/other-tenant.idx");
        UnflushedEndpoint endpoint = new UnflushedEndpoint((tenant, matchers, from, through) -> {
            // a merge uploads and indexes while the rows are read: its file must be named, its rows may be gone
            recent.written("index/t/1/during.idx");
            return new io.logbloom.ingest.Ingester.Unflushed(List.of(new StreamSnapshot(Labels.of("app", "a"),
                    List.of(LogEntry.of(5, "row")))), () -> {});
        }, () -> (targets, maxWait) -> new ConsumedOffsets.CatchUp(Set.of(), Map.of()), recent::since,
                () -> "n.3");
        byte[] request = new UnflushedRequest("t", 0, 100, List.of()).toJson();

        UnflushedEndpoint.Answer answer = endpoint.answer(request, "1000");
        assertThat(answer.incarnation()).isEqualTo("n.3");
        assertThat(answer.indexFilesAt()).isPositive();
        String at = String.valueOf(answer.indexFilesAt());
        assertThat(UnflushedEndpoint.indexFiles(answer.body(), at))
                .containsExactly("index/t/1/before.idx", "index/t/1/during.idx");
        assertThat(UnflushedEndpoint.frames(UnflushedEndpoint.framesOf(answer.body(), at))).singleElement()
                .satisfies(r -> assertThat(r.entries()).extracting(LogEntry::line).containsExactly("row"));

        UnflushedEndpoint.Answer notAsked = endpoint.answer(request);
        assertThat(notAsked.indexFilesAt()).isEqualTo(-1);
        assertThat(notAsked.incarnation()).isNull();
        assertThat(UnflushedEndpoint.indexFiles(notAsked.body(), null)).isNull();
        assertThat(UnflushedEndpoint.frames(UnflushedEndpoint.framesOf(notAsked.body(), null))).hasSize(1);

        // a moment whose writes it no longer holds: not known, so no files and the querier drops its listings
        millis.addAndGet(io.logbloom.index.RecentIndexFiles.KEPT.toMillis() + 1);
        UnflushedEndpoint.Answer tooOld = endpoint.answer(request, "1000");
        assertThat(tooOld.indexFilesAt()).isEqualTo(-1);
        assertThat(tooOld.incarnation()).isEqualTo("n.3");

        assertThatThrownBy(() -> endpoint.answer(request, "soon")).isInstanceOf(RecordFormatException.class)
                .hasMessageContaining(UnflushedEndpoint.INDEX_FILES_SINCE_HEADER);
        assertThatThrownBy(() -> UnflushedEndpoint.indexFiles(answer.body(), "99999"))
                .isInstanceOf(RecordFormatException.class).hasMessageContaining(UnflushedEndpoint.INDEX_FILES_AT_HEADER);
    }
}
