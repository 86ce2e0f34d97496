package io.logbloom.ingest;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.Utf8;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Stateless push validation with Loki's rules, order and messages ({@code pkg/validation/validate.go},
 * {@code pkg/distributor/validator.go}): labels are checked for count, then per sorted label name
 * length, value length and duplicates; entries for the accepted timestamp window (too old, too new),
 * repeated structured-metadata names (which Loki does not check; a row here holds one value per name), then line
 * size in UTF-8 bytes. Timestamps in messages
 * use RFC 3339 like Loki. Thread-safe (immutable).
 */
final class PushValidator {
    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ISO_INSTANT;

    private final LimitsConfig limits;

    PushValidator(LimitsConfig limits) {
        this.limits = Objects.requireNonNull(limits, "limits is null");
    }

    /**
     * Label names that count against {@code max_label_names_per_series}: all but {@code service_name}, which
     * Loki's validator exempts because service-name discovery may add it.
     */
    private static int countedLabelNames(List<Label> pairs) {
        int n = pairs.size();
        for (Label l : pairs) {
            if (l.name().equals(ServiceNameDiscovery.SERVICE_NAME)) {
                n--;
            }
        }
        return n;
    }

    /** The first label problem of a stream, or null; {@code stream} is the stream as quoted in messages. */
    Rejection validateLabels(String stream, List<Label> pairs) {
        if (pairs.isEmpty()) {
            return new Rejection(RejectReason.MISSING_LABELS, "error at least one label pair is required per stream");
        }
        int names = countedLabelNames(pairs);
        if (names > limits.maxLabelNamesPerSeries()) {
            return new Rejection(RejectReason.MAX_LABEL_NAMES_PER_SERIES, String.format(
                    "entry for stream '%s' has %d label names; limit %d", stream, names,
                    limits.maxLabelNamesPerSeries()));
        }
        List<Label> sorted = new ArrayList<>(pairs);
        sorted.sort(null);
        String previous = null;
        for (Label l : sorted) {
            if (Utf8.length(l.name()) > limits.maxLabelNameLength()) {
                return new Rejection(RejectReason.LABEL_NAME_TOO_LONG,
                        "stream '" + stream + "' has label name too long: '" + l.name() + "'");
            }
            if (Utf8.length(l.value()) > limits.maxLabelValueLength()) {
                return new Rejection(RejectReason.LABEL_VALUE_TOO_LONG,
                        "stream '" + stream + "' has label value too long: '" + l.value() + "'");
            }
            if (l.name().equals(previous)) {
                return new Rejection(RejectReason.DUPLICATE_LABEL_NAMES,
                        "stream '" + stream + "' has duplicate label name: '" + l.name() + "'");
            }
            previous = l.name();
        }
        return null;
    }

    /** The problem of one entry at wall-clock time {@code nowNanos}, or null. */
    Rejection validateEntry(String stream, LogEntry entry, long nowNanos) {
        return validateEntry(stream, entry, entry.utf8Length(), nowNanos);
    }

    /** As {@link #validateEntry(String, LogEntry, long)} with the line's UTF-8 length already known. */
    Rejection validateEntry(String stream, LogEntry entry, int lineUtf8Bytes, long nowNanos) {
        long ts = entry.timestampNanos();
        if (limits.rejectOldSamples()) {
            long oldest = saturatedSubtract(nowNanos, limits.rejectOldSamplesMaxAge().toNanos());
            if (ts < oldest) {
                return new Rejection(RejectReason.GREATER_THAN_MAX_SAMPLE_AGE, String.format(
                        "entry for stream '%s' has timestamp too old: %s, oldest acceptable timestamp is: %s",
                        stream, format(ts), format(oldest)));
            }
        }
        long newest = saturatedAdd(nowNanos, limits.creationGracePeriod().toNanos());
        if (ts > newest) {
            return new Rejection(RejectReason.TOO_FAR_IN_FUTURE,
                    String.format("entry for stream '%s' has timestamp too new: %s", stream, format(ts)));
        }
        String repeated = repeatedMetadataName(entry.metadata());
        if (repeated != null) {
            return new Rejection(RejectReason.INVALID_LABELS, "entry for stream '" + stream
                    + "' has duplicate structured metadata name: '" + repeated + "'");
        }
        if (limits.maxLineSizeBytes() > 0) {
            int length = lineUtf8Bytes;
            if (length > limits.maxLineSizeBytes()) {
                return new Rejection(RejectReason.LINE_TOO_LONG, String.format(
                        "Max entry size '%d' bytes exceeded for stream '%s' while adding an entry with length '%d' bytes",
                        limits.maxLineSizeBytes(), stream, length));
            }
        }
        return null;
    }

    /**
     * The first structured-metadata name that appears twice in {@code metadata}, or null. A protobuf push can
     * repeat a name within one entry (a JSON object cannot); a row holds one value per name.
     */
    static String repeatedMetadataName(List<Label> metadata) {
        int n = metadata.size();
        if (n <= 16) { // entries carry a few names: compare pairwise
            for (int i = 1; i < n; i++) {
                String name = metadata.get(i).name();
                for (int j = 0; j < i; j++) {
                    if (metadata.get(j).name().equals(name)) {
                        return name;
                    }
                }
            }
            return null;
        }
        Set<String> seen = new HashSet<>();
        for (Label l : metadata) {
            if (!seen.add(l.name())) {
                return l.name();
            }
        }
        return null;
    }

    /** Formats nanoseconds since the epoch as RFC 3339 seconds, as Loki's messages do. */
    static String format(long nanos) {
        Instant instant = Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L));
        return RFC3339.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }

    private static long saturatedSubtract(long a, long b) {
        long r = a - b;
        return ((a ^ b) & (a ^ r)) < 0 ? Long.MIN_VALUE : r;
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
