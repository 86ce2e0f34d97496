package io.logbloom.kafka;

import io.logbloom.chunks.TenantIds;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.StreamSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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

    private final UnflushedRows rows;
    private final Supplier<ConsumedOffsets> progress;

    /**
     * Answers from {@code rows} (it may throw while the ingester starts), after waiting on the
     * consumer {@code progress} supplies.
     */
    public UnflushedEndpoint(UnflushedRows rows, Supplier<ConsumedOffsets> progress) {
        this.rows = Objects.requireNonNull(rows, "rows is null");
        this.progress = Objects.requireNonNull(progress, "progress is null");
    }

    /**
     * An answer: the frames and the requested partitions this ingester answers for.
     *
     * @param frames the response body
     * @param caughtUp partitions of the request owned by this ingester and consumed up to the requested offsets
     */
    public record Answer(byte[] frames, Set<Integer> caughtUp) {
        /** Copies the partitions. */
        public Answer {
            Objects.requireNonNull(frames, "frames is null");
            caughtUp = Set.copyOf(caughtUp);
        }

        /** The {@value #PARTITIONS_HEADER} value: the partitions, ascending, comma-separated. */
        public String partitionsHeader() {
            return new TreeSet<>(caughtUp).stream().map(String::valueOf).collect(Collectors.joining(","));
        }
    }

    /** The answer to the JSON request {@code body}; {@link RecordFormatException} for a bad request. */
    public Answer answer(byte[] body) throws IOException {
        UnflushedRequest request = UnflushedRequest.fromJson(body);
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
        out.flush();
        return new Answer(bytes.toByteArray(), caughtUp);
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
