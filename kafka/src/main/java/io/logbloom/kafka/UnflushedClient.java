package io.logbloom.kafka;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** Asks one ingester for its unflushed rows: the querier's side of {@code POST /internal/unflushed}. */
@FunctionalInterface
interface UnflushedClient {
    /**
     * The ingester's reply to {@code request}; completes exceptionally with a {@link java.net.ConnectException}
     * when it refuses connections, a {@link NotCaughtUpException} when it answers 503, another exception
     * for any other failure.
     */
    CompletableFuture<Reply> ask(Announcement member, UnflushedRequest request);

    /**
     * One ingester's reply.
     *
     * @param records its unflushed rows, one record per stream
     * @param caughtUp partitions of the request it owns and consumed up to the requested offsets
     * @param incarnation the answering consumer and the rebalances it saw, or null (not asked, or not told)
     * @param indexFiles the index files of the tenant it wrote since the request's moment, or null (not asked, or
     *     not known)
     */
    record Reply(List<PushRecord> records, Set<Integer> caughtUp, String incarnation, List<String> indexFiles) {
        /** Copies. */
        public Reply {
            records = List.copyOf(Objects.requireNonNull(records, "records is null"));
            caughtUp = Set.copyOf(Objects.requireNonNull(caughtUp, "caughtUp is null"));
            indexFiles = indexFiles == null ? null : List.copyOf(indexFiles);
        }

        /** A reply naming neither incarnation nor index files. */
        Reply(List<PushRecord> records, Set<Integer> caughtUp) {
            this(records, caughtUp, null, null);
        }
    }
}
