package io.logbloom.kafka;

import io.logbloom.chunks.TenantIds;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.StreamSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The ingester's answer on {@code POST /internal/unflushed}: its unflushed rows (in memory and in
 * local parts) of the streams matching an {@link UnflushedRequest}, as a sequence of frames, each a
 * u32 length followed by a {@link PushRecordCodec} record of one stream. Queriers read it with
 * {@link RemoteUnflushedSource}.
 *
 * <p>A request carrying offsets (strong read consistency) is answered only once the ingester consumed
 * the partitions of the request it owns up to them; when that takes longer than the request allows,
 * {@link #answer} throws {@link NotCaughtUpException} (the querier fails the query rather than miss
 * acknowledged lines). The answer names, in the {@value #PARTITIONS_HEADER} header, the partitions of
 * the request this ingester owns and consumed that far; a requested partition it does not list is not
 * owned by it (it moved away, or never was), so the querier does not count this answer for it.
 *
 * <p>A request with the {@value #INDEX_FILES_SINCE_HEADER} header (a querier keeping its index listings) is also
 * told which index files of the tenant this ingester wrote since then, as lines of UTF-8 after the frames, from the
 * byte offset the {@value #INDEX_FILES_AT_HEADER} header names (no such header: not known, for example asked about a
 * moment more than {@code RecentIndexFiles.KEPT} back), and which consumer answers ({@value #INCARNATION_HEADER}: it changes with
 * every rebalance of the group). The files are read after the rows: a row missing from the rows because a merge
 * uploaded it meanwhile is in a file named. Both headers are sent only to a querier that asked.
 *
 * <p>Thread-safe (the ingester is).
 */
public final class UnflushedEndpoint {
    /**
     * Response header: comma-separated partitions of the request the ingester owns and consumed up to
     * the requested offsets (empty: none).
     */
    public static final String PARTITIONS_HEADER = "Logbloom-Caught-Up-Partitions";
    /**
     * Header of a 503 from an ingester that is still starting (consuming no partition yet), telling it apart
     * from one behind on its partitions: a strong read retries the first within its budget and fails at once
     * on the second.
     */
    public static final String STARTING_HEADER = "Logbloom-Ingester-Starting";
    /** Request header: epoch millis; the answer names the tenant's index files this ingester wrote since. */
    public static final String INDEX_FILES_SINCE_HEADER = "Logbloom-Index-Files-Since";
    /** Response header: the byte offset of the body where the index files (a key per line) begin. */
    public static final String INDEX_FILES_AT_HEADER = "Logbloom-Index-Files-At";
    /** Response header: the answering consumer and the rebalances it saw ({@link PartitionConsumer#incarnation}). */
    public static final String INCARNATION_HEADER = "Logbloom-Ingester-Incarnation";

    /** Which index files an ingester wrote at or after a moment ({@code RecentIndexFiles::since}). */
    @FunctionalInterface
    public interface IndexFilesWritten {
        /** Answers nothing: no file is ever named. */
        IndexFilesWritten NONE = (tenant, sinceMillis) -> Optional.empty();

        /** The keys of {@code tenant}'s files written at or after {@code sinceMillis}, or empty when not known. */
        Optional<List<String>> since(String tenant, long sinceMillis);
    }

    private final UnflushedRows rows;
    private final Supplier<ConsumedOffsets> progress;
    private final IndexFilesWritten indexFiles;
    private final Supplier<String> incarnation;

    /**
     * Answers from {@code rows} (it may throw while the ingester starts), after waiting on the
     * consumer {@code progress} supplies; names no index files.
     */
    public UnflushedEndpoint(UnflushedRows rows, Supplier<ConsumedOffsets> progress) {
        this(rows, progress, IndexFilesWritten.NONE, () -> null);
    }

    /**
     * As the other constructor, naming the index files {@code indexFiles} knows and the consumer's
     * {@code incarnation} to a querier that asks.
     */
    public UnflushedEndpoint(UnflushedRows rows, Supplier<ConsumedOffsets> progress, IndexFilesWritten indexFiles,
            Supplier<String> incarnation) {
        this.rows = Objects.requireNonNull(rows, "rows is null");
        this.progress = Objects.requireNonNull(progress, "progress is null");
        this.indexFiles = Objects.requireNonNull(indexFiles, "indexFiles is null");
        this.incarnation = Objects.requireNonNull(incarnation, "incarnation is null");
    }

    /**
     * An answer: the body and the requested partitions this ingester answers for.
     *
     * @param body the response body: the frames, then any index files
     * @param caughtUp partitions of the request owned by this ingester and consumed up to the requested offsets
     * @param indexFilesAt where the index files begin in {@code body} ({@value #INDEX_FILES_AT_HEADER}), or -1 when
     *     not asked or not known
     * @param incarnation the {@value #INCARNATION_HEADER} value, or null when not asked or not known
     */
    public record Answer(byte[] body, Set<Integer> caughtUp, int indexFilesAt, String incarnation) {
        /** Copies the partitions. */
        public Answer {
            Objects.requireNonNull(body, "body is null");
            caughtUp = Set.copyOf(caughtUp);
        }

        /** The {@value #PARTITIONS_HEADER} value: the partitions, ascending, comma-separated. */
        public String partitionsHeader() {
            return new TreeSet<>(caughtUp).stream().map(String::valueOf).collect(Collectors.joining(","));
        }
    }

    /** The answer to the JSON request {@code body}, naming no index files. */
    public Answer answer(byte[] body) throws IOException {
        return answer(body, null);
    }

    /**
     * The answer to the JSON request {@code body} with the {@value #INDEX_FILES_SINCE_HEADER} value {@code since}
     * (null when absent); {@link RecordFormatException} for a bad request or header.
     */
    public Answer answer(byte[] body, String since) throws IOException {
        UnflushedRequest request = UnflushedRequest.fromJson(body);
        long sinceMillis = -1;
        if (since != null) {
            try {
                sinceMillis = Long.parseLong(since.strip());
            } catch (NumberFormatException e) {
                sinceMillis = -2;
            }
            if (sinceMillis < 0) {
                throw new RecordFormatException("unflushed-data request: header " + INDEX_FILES_SINCE_HEADER
                        + " is not epoch milliseconds: " + since);
            }
        }
        TenantIds.validate(request.tenant());
        Set<Integer> caughtUp = Set.of();
        if (!request.offsets().isEmpty()) {
            ConsumedOffsets.CatchUp catchUp;
            try {
                catchUp = progress.get().awaitConsumed(request.offsets(), Duration.ofMillis(request.waitMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while catching up with Kafka");
            }
            if (!catchUp.behind().isEmpty()) {
                throw new NotCaughtUpException("strong read consistency: after " + request.waitMillis()
                        + " ms this ingester has consumed partitions " + new java.util.TreeMap<>(catchUp.behind())
                        + " (partition=offset reached) but the query needs " + new java.util.TreeMap<>(request.offsets())
                        + "; retry, or set kafka.read_consistency: eventual");
            }
            caughtUp = catchUp.caughtUp();
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        // the rows of local parts are read before the parts are handed back to the merger
        try (Ingester.Unflushed unflushed = rows.unflushed(request.tenant(), request.matchers(), request.fromNanos(),
                request.throughNanos())) {
            for (StreamSnapshot s : unflushed.streams()) {
                byte[] frame = PushRecordCodec.encode(new PushRecord(request.tenant(), s.labels(),
                        s.allEntries(request.fromNanos(), request.throughNanos())));
                out.writeInt(frame.length);
                out.write(frame);
            }
        }
        int indexFilesAt = -1;
        String answering = null;
        if (sinceMillis >= 0) {
            // after the rows: a row a merge took out of them meanwhile is in a file named here
            answering = incarnation.get();
            Optional<List<String>> written = indexFiles.since(request.tenant(), sinceMillis);
            if (written.isPresent() && answering != null) {
                indexFilesAt = out.size();
                for (String key : written.get()) {
                    out.write((key + "\n").getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        out.flush();
        return new Answer(bytes.toByteArray(), caughtUp, indexFilesAt, answering);
    }

    /**
     * The index files of an answer: the lines of {@code body} from {@code at} ({@value #INDEX_FILES_AT_HEADER}), or
     * null when {@code at} is null (not known). {@link RecordFormatException} when {@code at} is not an offset
     * within the body.
     */
    static List<String> indexFiles(byte[] body, String at) {
        if (at == null) {
            return null;
        }
        int offset = offsetIn(body, at);
        List<String> keys = new ArrayList<>();
        for (String line : new String(body, offset, body.length - offset, StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty()) {
                keys.add(line);
            }
        }
        return keys;
    }

    /** The frames of an answer: {@code body} up to {@code at} ({@value #INDEX_FILES_AT_HEADER}, or null: all). */
    static byte[] framesOf(byte[] body, String at) {
        return at == null ? body : Arrays.copyOf(body, offsetIn(body, at));
    }

    private static int offsetIn(byte[] body, String at) {
        try {
            int offset = Integer.parseInt(at.strip());
            if (offset >= 0 && offset <= body.length) {
                return offset;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new RecordFormatException("unflushed-data answer: header " + INDEX_FILES_AT_HEADER + " is not an offset"
                + " within its " + body.length + "-byte body: " + at);
    }

    /**
     * Parses a {@value #PARTITIONS_HEADER} value; an absent header (null) is no partition. Throws
     * {@link RecordFormatException} for anything but comma-separated partition numbers.
     */
    static Set<Integer> partitions(String header) {
        Set<Integer> out = new TreeSet<>();
        if (header == null || header.isBlank()) {
            return out;
        }
        for (String part : header.split(",")) {
            try {
                int p = Integer.parseInt(part.strip());
                if (p < 0) {
                    throw new NumberFormatException("negative");
                }
                out.add(p);
            } catch (NumberFormatException e) {
                throw new RecordFormatException("unflushed-data answer: header " + PARTITIONS_HEADER
                        + " is not a list of partitions: " + header);
            }
        }
        return out;
    }

    /** Splits an answer into its records. */
    static List<PushRecord> frames(byte[] answer) {
        ByteBuffer in = ByteBuffer.wrap(answer);
        List<PushRecord> out = new ArrayList<>();
        while (in.hasRemaining()) {
            if (in.remaining() < 4) {
                throw new RecordFormatException("unflushed-data answer truncated in a frame length");
            }
            int n = in.getInt();
            if (n < 0 || n > in.remaining()) {
                throw new RecordFormatException("unflushed-data frame of " + n + " bytes exceeds the answer");
            }
            byte[] frame = new byte[n];
            in.get(frame);
            out.add(PushRecordCodec.decode(frame));
        }
        return out;
    }
}
