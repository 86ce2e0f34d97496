package io.logbloom.ingest;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The distributor's half of a push: the same validation and per-tenant rate limit as
 * {@link Ingester#push}, with Loki's messages, but nothing is stored; the admitted streams go to
 * another process (through Kafka), which stores them with {@link Ingester#pushAdmitted}. The
 * active-stream limit and the out-of-order window need the stored streams and are not applied here.
 *
 * <p>Thread-safe (the tenants' limiters are).
 */
public final class PushGate {
    private final PushAdmission admission;
    private final BiConsumer<String, Long> rejectedCounter;

    /** The admitted streams of one push (labels in their canonical form) and the push's answer. */
    public record Admitted(List<Stream> streams, PushResult result) {
        /** Copies. */
        public Admitted {
            streams = List.copyOf(streams);
            Objects.requireNonNull(result, "result is null");
        }
    }

    /** One admitted stream: parsed labels and its valid entries in push order. */
    public record Stream(Labels labels, List<LogEntry> entries) {
        /** Copies. */
        public Stream {
            Objects.requireNonNull(labels, "labels is null");
            entries = List.copyOf(entries);
        }
    }

    /**
     * Admits with {@code limits} (already divided among the distributors by the caller);
     * {@code rejectedCounter} gets the count of rejected entries per reason label.
     */
    public PushGate(LimitsConfig limits, Duration maxChunkAge, Clock clock, BiConsumer<String, Long> rejectedCounter) {
        this.admission = new PushAdmission(limits, maxChunkAge, clock);
        this.rejectedCounter = Objects.requireNonNull(rejectedCounter, "rejectedCounter is null");
    }

    /** Validates and rate-limits one push of {@code tenant} at {@code nowNanos}; see the class comment. */
    public Admitted admit(String tenant, List<PushStream> streams, long nowNanos) {
        io.logbloom.chunks.TenantIds.validate(tenant);
        PushErrors errors = new PushErrors();
        PushAdmission.Admitted admitted = admission.admit(tenant, streams, nowNanos, errors);
        List<Stream> out = new ArrayList<>(admitted.candidates().size());
        for (PushCandidate c : admitted.candidates()) {
            List<LogEntry> entries = new ArrayList<>(c.entries.size());
            for (PushCandidate.Prepared p : c.entries) {
                entries.add(p.entry);
            }
            if (!entries.isEmpty()) {
                out.add(new Stream(c.labels, entries));
            }
        }
        PushResult result = errors.result(admitted.validLines(),
                (reason, count) -> rejectedCounter.accept(reason.label(), count));
        return new Admitted(out, result);
    }
}
