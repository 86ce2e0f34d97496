package io.logbloom.ingest;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.Utf8;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Admission of pushes, Loki's rules and messages: label parsing and validation, entry validation,
 * the tenant's ingestion rate (all-or-nothing token bucket), and the per-stream checks the stream
 * store asks for under its lock: the active-stream limit and the hourly/daily series limiters for new
 * streams, and the out-of-order window for entries. Admission owns no data; what it admits is stored
 * by {@link StreamWriter}.
 *
 * <p>Thread-safe: the per-tenant limiters are thread-safe and created atomically; the cache of parsed
 * selectors is a concurrent map of immutable values.
 */
final class PushAdmission {
    private final LimitsConfig limits;
    private final Duration maxChunkAge;
    private final PushValidator validator;
    private final Clock clock;
    private final Map<String, TenantLimiters> tenants = new ConcurrentHashMap<>();
    /**
     * Parsed selector strings. The first parse kept wins: pushes that parsed a new selector at the same time all
     * return its labels, the instance their stream is registered under, so the stream maps find it by reference.
     * When the last parse replaced it, every later push compared each stream's labels with the registered ones label
     * by label, in two map lookups per stream (1.3 % of the server's CPU over a 3 M-line push on four connections).
     */
    private final SelectorCache<ParsedLabels> parsedLabels = new SelectorCache<>(MAX_PARSED_LABELS);

    /** The valid streams of one push with their byte and line totals. */
    record Admitted(List<PushCandidate> candidates, long validBytes, int validLines) {}

    /** A selector's labels and their string form (null when refused), or why they are refused (null when valid). */
    private record ParsedLabels(Labels labels, String shown, Rejection problem) {}

    /** Rate and series limiters of one tenant (null limiters are off). */
    private record TenantLimiters(IngestionRateLimiter rate, SeriesLimiter hourly, SeriesLimiter daily) {}

    PushAdmission(LimitsConfig limits, Duration maxChunkAge, Clock clock) {
        this.limits = Objects.requireNonNull(limits, "limits is null");
        this.maxChunkAge = Objects.requireNonNull(maxChunkAge, "maxChunkAge is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.validator = new PushValidator(limits);
    }

    /**
     * Admission for entries a distributor admitted already and Kafka carried to this ingester, the
     * owner of their partition (Loki's partition ingesters): the same label and entry validation,
     * the active-stream limit (over this ingester's streams of the tenant), the new-series limiters
     * and the out-of-order window; no rate limit and no age check, which the distributor applied when
     * it acknowledged the push (a record re-read after a crash must not be refused for its age).
     */
    static PushAdmission partitionOwner(LimitsConfig limits, Duration maxChunkAge, Clock clock) {
        LimitsConfig owner = new LimitsConfig(UNLIMITED_MB, UNLIMITED_MB, limits.maxLineSizeBytes(),
                limits.maxLabelNamesPerSeries(), limits.maxLabelNameLength(), limits.maxLabelValueLength(), false,
                limits.rejectOldSamplesMaxAge(), UNLIMITED_AGE, limits.maxGlobalStreamsPerUser(),
                limits.maxNewSeriesPerHour(), limits.maxNewSeriesPerDay(), limits.unorderedWrites());
        return new PushAdmission(owner, maxChunkAge, clock);
    }

    /** Distinct selector strings cached: far above the streams a tenant pushes at once, ~1 MB at most. */
    private static final int MAX_PARSED_LABELS = 4096;
    /** A rate no push reaches (MiB/s); finite, as the token bucket requires. */
    private static final double UNLIMITED_MB = 1e9;
    /** An age no entry reaches; half of it still fits a signed 64-bit nanosecond timestamp difference. */
    private static final Duration UNLIMITED_AGE = Duration.ofNanos(Long.MAX_VALUE / 4);

    /**
     * Validates labels and entries (rejections go to {@code errors}) and charges the tenant's rate
     * limit for the valid bytes; when the rate limit refuses, every valid entry is rejected, the push
     * is marked rate-limited and no candidate is returned.
     */
    Admitted admit(String tenant, List<PushStream> streams, long nowNanos, PushErrors errors) {
        Map<Labels, PushCandidate> candidates = new LinkedHashMap<>();
        long validBytes = 0;
        int validLines = 0;
        for (PushStream ps : streams) {
            ParsedLabels parsed = parseLabels(ps.labels());
            if (parsed.problem() != null) {
                errors.reject(parsed.problem(), ps.entries().size());
                continue;
            }
            PushCandidate candidate = candidates.computeIfAbsent(parsed.labels(), l -> new PushCandidate(l, parsed.shown()));
            for (LogEntry entry : ps.entries()) {
                // the line's UTF-8 bytes (as a protobuf push delivered them, else encoded once here): their length is
                // validated and counted here, then the same bytes are hashed and written to the WAL and the buffers
                byte[] utf8Line = entry.utf8Line();
                int lineBytes = utf8Line.length;
                Rejection problem = validator.validateEntry(candidate.shown, entry, lineBytes, nowNanos);
                if (problem != null) {
                    errors.reject(problem, 1);
                    continue;
                }
                long size = entrySize(entry, lineBytes);
                candidate.entries.add(new PushCandidate.Prepared(entry, utf8Line, size));
                validBytes += size;
                validLines++;
            }
        }
        if (validLines > 0 && !limiters(tenant).rate().tryAcquire(validBytes)) {
            errors.reject(RejectReason.RATE_LIMITED, String.format(
                    "Ingestion rate limit exceeded for user %s (limit: %d bytes/sec) while attempting to ingest '%d' lines "
                            + "totaling '%d' bytes, reduce log volume or contact your Loki administrator to see if the limit "
                            + "can be increased", tenant, limits.ingestionRateBytesPerSecond(), validLines, validBytes),
                    validLines);
            errors.markRateLimited();
            return new Admitted(List.of(), 0, 0);
        }
        return new Admitted(new ArrayList<>(candidates.values()), validBytes, validLines);
    }

    /**
     * The labels of a push stream's selector string, parsed and validated, or why they are refused;
     * cached per selector string, as clients send the same few strings in every push.
     */
    private ParsedLabels parseLabels(String selector) {
        return parsedLabels.get(selector, this::parse);
    }

    private ParsedLabels parse(String selector) {
        try {
            List<Label> pairs = LabelsParser.parse(selector);
            String shown = canonical(pairs);
            Rejection problem = validator.validateLabels(shown, pairs);
            Labels labels = problem == null ? Labels.of(pairs) : null;
            return new ParsedLabels(labels, labels == null ? null : labels.toString(), problem);
        } catch (IllegalArgumentException e) {
            return new ParsedLabels(null, null, new Rejection(RejectReason.INVALID_LABELS,
                    String.format("Error parsing labels '%s' with error: %s", selector, e.getMessage())));
        }
    }

    /** Null when a new stream may be created for {@code tenant}, which has {@code tenantStreams} streams; else why not. */
    Rejection admitNewStream(String tenant, int tenantStreams, PushCandidate c) {
        int max = limits.maxGlobalStreamsPerUser();
        if (max > 0 && tenantStreams >= max) {
            return new Rejection(RejectReason.STREAM_LIMIT, String.format(
                    "Maximum active stream limit exceeded when trying to create stream %s, reduce the number of active "
                            + "streams (reduce labels or reduce label values), or contact your Loki administrator to see if "
                            + "the limit can be increased, user: '%s'", c.shown, tenant));
        }
        TenantLimiters l = limiters(tenant);
        if (l.hourly() != null && !l.hourly().allow(c.labels.fingerprint())) {
            return new Rejection(RejectReason.SERIES_LIMIT_HOURLY, String.format(
                    "Maximum new series per hour limit (%d) exceeded when trying to create stream %s, user: '%s'",
                    l.hourly().maxItems(), c.shown, tenant));
        }
        if (l.daily() != null && !l.daily().allow(c.labels.fingerprint())) {
            return new Rejection(RejectReason.SERIES_LIMIT_DAILY, String.format(
                    "Maximum new series per day limit (%d) exceeded when trying to create stream %s, user: '%s'",
                    l.daily().maxItems(), c.shown, tenant));
        }
        return null;
    }

    /** Null when {@code entry} may join a stream whose newest entry is {@code newestNanos}; else why not. */
    Rejection orderCheck(long newestNanos, String labelsString, LogEntry entry) {
        if (newestNanos == Long.MIN_VALUE) {
            return null;
        }
        long ts = entry.timestampNanos();
        if (limits.unorderedWrites()) {
            long oldest = newestNanos - maxChunkAge.toNanos() / 2;
            if (ts < oldest) {
                return new Rejection(RejectReason.TOO_FAR_BEHIND, String.format(
                        "entry with timestamp %s ignored, reason: 'entry too far behind, entry timestamp is: %s, oldest "
                                + "acceptable timestamp is: %s' for stream: %s", PushValidator.format(ts),
                        PushValidator.format(ts), PushValidator.format(oldest), labelsString));
            }
        } else if (ts < newestNanos) {
            return new Rejection(RejectReason.OUT_OF_ORDER, String.format(
                    "entry with timestamp %s ignored, reason: 'entry out of order' for stream: %s",
                    PushValidator.format(ts), labelsString));
        }
        return null;
    }

    private TenantLimiters limiters(String tenant) {
        return tenants.computeIfAbsent(tenant, t -> new TenantLimiters(
                new IngestionRateLimiter(clock, limits.ingestionRateBytesPerSecond(), limits.ingestionBurstBytes()),
                limits.maxNewSeriesPerHour() > 0
                        ? new SeriesLimiter(limits.maxNewSeriesPerHour(), Duration.ofHours(1), clock) : null,
                limits.maxNewSeriesPerDay() > 0
                        ? new SeriesLimiter(limits.maxNewSeriesPerDay(), Duration.ofDays(1), clock) : null));
    }

    /** Raw size as Loki counts it for rate limits and as {@code MemChunk#rawSize} does: UTF-8 of line and metadata. */
    static long entrySize(LogEntry entry, int lineBytes) {
        long size = lineBytes;
        for (Label l : entry.metadata()) {
            size += Utf8.length(l.name()) + Utf8.length(l.value());
        }
        return size;
    }

    /** Sorted selector form of possibly-invalid pairs (duplicates kept), as Loki quotes streams. */
    private static String canonical(List<Label> pairs) {
        List<Label> sorted = new ArrayList<>(pairs);
        sorted.sort(null);
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < sorted.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(sorted.get(i).name()).append("=\"");
            LabelsParser.appendEscaped(sb, sorted.get(i).value());
            sb.append('"');
        }
        return sb.append('}').toString();
    }
}
