package io.logbloom.patterns;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Mines log patterns per tenant, stream and detected level, as Loki's pattern ingester does, and keeps
 * them for a recent window ({@code retention}, Loki's {@code pattern_ingester.retain_for}, 3 h):
 * every {@link #PRUNE_INTERVAL_MILLIS} a tenant's miners drop samples older than the window and
 * clusters left empty, and streams without clusters are forgotten. Each miner holds at most
 * {@link DrainConfig#maxClusters()} clusters, so memory is bounded by streams × levels × clusters.
 *
 * <p>Thread-safe: the tenant and stream maps are concurrent; each {@link Drain} is guarded by its own
 * monitor, so pushes to different streams mine in parallel.
 */
public final class PatternMiner {
    /** How often a tenant's miners are pruned (a cheap sweep, at most once per this many ms of line time). */
    static final long PRUNE_INTERVAL_MILLIS = 60_000;

    private final DrainConfig config;
    private final long retentionMillis;
    private final Map<String, Tenant> tenants = new ConcurrentHashMap<>();

    /** A stream's labels and the level whose lines one miner sees. */
    private record Key(Map<String, String> labels, String level) {}

    private static final class Tenant {
        final Map<Key, Drain> drains = new ConcurrentHashMap<>();
        volatile long lastPruneMillis;
    }

    /** A miner with Drain {@code config}, keeping patterns for {@code retentionMillis}. */
    public PatternMiner(DrainConfig config, long retentionMillis) {
        this.config = Objects.requireNonNull(config, "config is null");
        if (retentionMillis <= 0) {
            throw new IllegalArgumentException("retention must be positive: " + retentionMillis);
        }
        this.retentionMillis = retentionMillis;
    }

    /**
     * Mines one line of {@code tenant}'s stream {@code labels} with level {@code level} (empty when
     * unknown) at {@code timestampMillis}; {@code nowMillis} drives pruning. Returns false when the line
     * was skipped (too short, too long, too many tokens).
     */
    public boolean train(String tenant, Map<String, String> labels, String level, long timestampMillis, String line,
            long nowMillis) {
        return train(tenant, labels, level, new long[] {timestampMillis}, List.of(line), nowMillis) == 1;
    }

    /**
     * Mines {@code lines} of one stream and level, {@code timestampsMillis[i]} being the time of line i,
     * under one lookup and one lock; returns how many were mined (the others were skipped).
     */
    public int train(String tenant, Map<String, String> labels, String level, long[] timestampsMillis,
            List<String> lines, long nowMillis) {
        if (timestampsMillis.length < lines.size()) {
            throw new IllegalArgumentException("BUG: " + lines.size() + " lines but " + timestampsMillis.length
                    + " timestamps");
        }
        Tenant t = tenants.computeIfAbsent(tenant, k -> new Tenant());
        Drain drain = t.drains.computeIfAbsent(new Key(labels, level), k -> new Drain(config));
        int mined = 0;
        synchronized (drain) {
            for (int i = 0; i < lines.size(); i++) {
                if (drain.train(lines.get(i), timestampsMillis[i]) != null) {
                    mined++;
                }
            }
        }
        if (nowMillis - t.lastPruneMillis >= PRUNE_INTERVAL_MILLIS) {
            t.lastPruneMillis = nowMillis;
            prune(t, nowMillis - retentionMillis);
        }
        return mined;
    }

    private static void prune(Tenant t, long cutoffMillis) {
        t.drains.entrySet().removeIf(e -> {
            Drain d = e.getValue();
            synchronized (d) {
                d.pruneBefore(cutoffMillis);
                return d.isEmpty();
            }
        });
    }

    /**
     * The patterns of {@code tenant}'s streams whose labels pass {@code streams}, with their counts in
     * [startMillis, endMillis) summed per step of {@code stepMillis} (at least the 10 s resolution) and
     * merged across streams by pattern and level; most frequent first.
     */
    public List<MinedPattern> patterns(String tenant, Predicate<Map<String, String>> streams, long startMillis,
            long endMillis, long stepMillis) {
        Tenant t = tenants.get(tenant);
        if (t == null) {
            return List.of();
        }
        long step = Math.max(stepMillis, PatternSamples.RESOLUTION_MILLIS);
        Map<List<String>, TreeMap<Long, Long>> merged = new LinkedHashMap<>();
        for (Map.Entry<Key, Drain> e : t.drains.entrySet()) {
            if (!streams.test(e.getKey().labels())) {
                continue;
            }
            Drain d = e.getValue();
            synchronized (d) {
                for (Drain.Cluster c : d.clusters()) {
                    TreeMap<Long, Long> sink = new TreeMap<>();
                    c.samples.addTo(startMillis, endMillis, step, sink);
                    if (!sink.isEmpty()) {
                        TreeMap<Long, Long> into = merged.computeIfAbsent(List.of(c.pattern(), e.getKey().level()),
                                k -> new TreeMap<>());
                        sink.forEach((time, count) -> into.merge(time, count, Long::sum));
                    }
                }
            }
        }
        List<MinedPattern> out = new ArrayList<>(merged.size());
        merged.forEach((key, points) -> {
            List<MinedPattern.Sample> samples = new ArrayList<>(points.size());
            points.forEach((time, count) -> samples.add(new MinedPattern.Sample(time, count)));
            out.add(new MinedPattern(key.get(0), key.get(1), samples));
        });
        out.sort((a, b) -> Long.compare(b.total(), a.total()));
        return out;
    }
}
