package io.logbloom.kafka;

import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.StreamSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The ingester's answer on {@code POST /internal/unflushed}: its unflushed rows (in memory and in
 * local parts) of the streams matching an {@link UnflushedRequest}, as a sequence of frames, each a
 * u32 length followed by a {@link PushRecordCodec} record of one stream. Queriers read it with
 * {@link RemoteUnflushedSource}. A request carrying offsets (strong read consistency) is answered
 * only once the ingester consumed its owned partitions up to them; when that takes longer than the
 * request allows, {@link #answer} throws {@link NotCaughtUpException} (the querier fails the query
 * rather than miss acknowledged lines). Thread-safe (the ingester is).
 */
public final class UnflushedEndpoint {
    private final Supplier<Ingester> ingester;
    private final Supplier<ConsumedOffsets> progress;

    /**
     * Answers from the ingester {@code ingester} supplies (it may throw while the ingester starts),
     * after waiting on the consumer {@code progress} supplies.
     */
    public UnflushedEndpoint(Supplier<Ingester> ingester, Supplier<ConsumedOffsets> progress) {
        this.ingester = Objects.requireNonNull(ingester, "ingester is null");
        this.progress = Objects.requireNonNull(progress, "progress is null");
    }

    /** The frames answering the JSON request {@code body}; {@link RecordFormatException} for a bad request. */
    public byte[] answer(byte[] body) throws IOException {
        UnflushedRequest request = UnflushedRequest.fromJson(body);
        io.logbloom.chunks.TenantIds.validate(request.tenant());
        if (!request.offsets().isEmpty()) {
            java.util.Map<Integer, Long> behind;
            try {
                behind = progress.get().awaitConsumed(request.offsets(),
                        java.time.Duration.ofMillis(request.waitMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while catching up with Kafka");
            }
            if (!behind.isEmpty()) {
                throw new NotCaughtUpException("strong read consistency: after " + request.waitMillis()
                        + " ms this ingester has consumed partitions " + behind + " (partition=offset reached) but the "
                        + "query needs " + request.offsets() + "; retry, or set kafka.read_consistency: eventual");
            }
        }
        List<StreamSnapshot> streams = ingester.get().unflushed(request.tenant(), request.matchers(),
                request.fromNanos(), request.throughNanos());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        for (StreamSnapshot s : streams) {
            byte[] frame = PushRecordCodec.encode(new PushRecord(request.tenant(), s.labels(),
                    s.allEntries(request.fromNanos(), request.throughNanos())));
            out.writeInt(frame.length);
            out.write(frame);
        }
        out.flush();
        return bytes.toByteArray();
    }

    /** Splits an answer into its records. */
    static List<PushRecord> frames(byte[] answer) {
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(answer);
        List<PushRecord> out = new java.util.ArrayList<>();
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
