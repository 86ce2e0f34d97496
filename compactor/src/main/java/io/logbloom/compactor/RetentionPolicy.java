package io.logbloom.compactor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * Decides from which instant a stream's entries are kept, with Loki's retention rules: the matching
 * {@code retention_stream} rule of highest priority (on a tie the shortest period) wins over the tenant's
 * {@code retention_period}; a period of 0 keeps forever. An entry is expired when its timestamp is before
 * the cutoff {@code now - period}; a chunk is expired when its last entry is.
 *
 * <p>Used by the compactor (which deletes) and by the query-time filter (which hides what the next
 * compaction pass will delete), so both always agree. Immutable and thread-safe: selectors are compiled
 * once here.
 */
public final class RetentionPolicy {
    /** Cutoff meaning "keep everything". */
    public static final long KEEP_ALL = Long.MIN_VALUE;

    private final TenantLimits limits;
    private final Map<RetentionLimits, List<CompiledRule>> compiled = new HashMap<>();

    /** A policy over {@code limits}. */
    public RetentionPolicy(TenantLimits limits) {
        this.limits = Objects.requireNonNull(limits, "limits is null");
        compiled.put(limits.defaults(), compile(limits.defaults()));
        for (RetentionLimits l : limits.overrides().values()) {
            compiled.computeIfAbsent(l, RetentionPolicy::compile);
        }
    }

    private static List<CompiledRule> compile(RetentionLimits l) {
        List<CompiledRule> rules = new ArrayList<>(l.streams().size());
        for (StreamRetention s : l.streams()) {
            rules.add(new CompiledRule(s.compile(), s.period().toNanos(), s.priority()));
        }
        return List.copyOf(rules);
    }

    /** The limits this policy applies. */
    public TenantLimits limits() {
        return limits;
    }

    /** Whether any tenant has a retention period or stream rule (otherwise nothing ever expires). */
    public boolean anyRetention() {
        if (hasRetention(limits.defaults())) {
            return true;
        }
        return limits.overrides().values().stream().anyMatch(RetentionPolicy::hasRetention);
    }

    private static boolean hasRetention(RetentionLimits l) {
        return !l.retentionPeriod().isZero() || !l.streams().isEmpty();
    }

    /**
     * The first kept timestamp (nanoseconds) of the stream with {@code labels} of {@code tenant} at
     * {@code nowNanos}; {@link #KEEP_ALL} when it is kept forever.
     */
    public long cutoffNanos(String tenant, Map<String, String> labels, long nowNanos) {
        RetentionLimits l = limits.forTenant(tenant);
        boolean found = false;
        int foundPriority = 0;
        long period = 0;
        for (CompiledRule rule : compiled.get(l)) {
            if (!rule.selector().test(labels)) {
                continue;
            }
            if (found && (rule.priority() < foundPriority || (rule.priority() == foundPriority && rule.periodNanos() >= period))) {
                continue;
            }
            found = true;
            foundPriority = rule.priority();
            period = rule.periodNanos();
        }
        if (!found) {
            period = l.retentionPeriod().toNanos();
        }
        return period == 0 ? KEEP_ALL : nowNanos - period;
    }

    /**
     * The earliest cutoff any stream of {@code tenant} can have at {@code nowNanos} (the longest retention);
     * {@link #KEEP_ALL} when some stream is kept forever.
     */
    public long earliestCutoffNanos(String tenant, long nowNanos) {
        RetentionLimits l = limits.forTenant(tenant);
        if (l.retentionPeriod().isZero()) {
            return KEEP_ALL;
        }
        long longest = l.retentionPeriod().toNanos();
        for (StreamRetention s : l.streams()) {
            longest = Math.max(longest, s.period().toNanos());
        }
        return nowNanos - longest;
    }

    /**
     * The latest cutoff any stream of {@code tenant} can have at {@code nowNanos} (the shortest retention
     * among its period and stream rules); {@link #KEEP_ALL} when nothing of the tenant ever expires.
     */
    public long latestCutoffNanos(String tenant, long nowNanos) {
        RetentionLimits l = limits.forTenant(tenant);
        long shortest = l.retentionPeriod().toNanos();
        for (StreamRetention s : l.streams()) {
            long period = s.period().toNanos();
            if (period > 0 && (shortest == 0 || period < shortest)) {
                shortest = period;
            }
        }
        return shortest == 0 ? KEEP_ALL : nowNanos - shortest;
    }

    private record CompiledRule(Predicate<Map<String, String>> selector, long periodNanos, int priority) {}
}
