package io.logbloom.index;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.TenantIds;
import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Persists index content as immutable period files in the object store:
 * {@code index/<tenant>/<period>/<writerId>-<epochMillis>-<crc32c>.idx}. A chunk ref goes into
 * every period its time range overlaps (as Loki's TSDB does), so a lookup over any period finds it.
 * The writer id (one per process) and the clock keep keys unique across writers and flush cycles;
 * the object store's atomic put means readers see a whole file or none. Thread-safe.
 */
public final class IndexWriter {
    private final ObjectStore store;
    private final IndexConfig config;
    private final InstantSource clock;
    private final String writerId;
    private final IndexFileWriter fileWriter = new IndexFileWriter();
    /** Where each written file goes too, or null. */
    private final IndexFileCache written;
    /** Told of every put, finished or failed, or null. */
    private final RecentIndexFiles recent;

    /** A writer putting files into {@code store}; {@code writerId} names this process in keys ({@code [A-Za-z0-9_-]+}). */
    public IndexWriter(ObjectStore store, IndexConfig config, InstantSource clock, String writerId) {
        this(store, config, clock, writerId, null, null);
    }

    /**
     * As the other constructor, each file it puts also admitted to {@code written} (the cache this process's queries
     * open index files through), so they need not read it back.
     */
    public IndexWriter(ObjectStore store, IndexConfig config, InstantSource clock, String writerId,
            IndexFileCache written) {
        this(store, config, clock, writerId, written, null);
    }

    /**
     * As the other constructors, each file it puts also admitted to {@code written} (or null) and each put, finished
     * or failed (a failed put may still have landed), recorded in {@code recent} (or null): what an ingester of a
     * cluster tells the queriers it wrote.
     */
    public IndexWriter(ObjectStore store, IndexConfig config, InstantSource clock, String writerId,
            IndexFileCache written, RecentIndexFiles recent) {
        this.written = written;
        this.recent = recent;
        this.store = Objects.requireNonNull(store, "store is null");
        this.config = Objects.requireNonNull(config, "config is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        Objects.requireNonNull(writerId, "writerId is null");
        if (writerId.isEmpty() || writerId.length() > 64 || !writerId.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("invalid index writer id '" + writerId
                    + "': use 1 to 64 of the characters A-Z a-z 0-9 _ -");
        }
        this.writerId = writerId;
    }

    /**
     * Writes one file per period that {@code series}' refs overlap, each holding the refs overlapping
     * that period; returns the keys written, sorted by period (none for no refs).
     */
    public List<String> write(String tenant, List<SeriesChunks> series) throws IOException {
        Objects.requireNonNull(tenant, "tenant is null");
        TenantIds.validate(tenant);
        TreeMap<Long, List<SeriesChunks>> byPeriod = new TreeMap<>();
        for (SeriesChunks s : series) {
            TreeMap<Long, List<ChunkRef>> refsByPeriod = new TreeMap<>();
            for (ChunkRef ref : s.chunks()) {
                long first = config.periodNumber(ref.fromNanos());
                long last = config.periodNumber(ref.throughNanos());
                for (long p = first; p <= last; p++) {
                    refsByPeriod.computeIfAbsent(p, k -> new ArrayList<>()).add(ref);
                }
            }
            for (Map.Entry<Long, List<ChunkRef>> e : refsByPeriod.entrySet()) {
                byPeriod.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(new SeriesChunks(s.labels(), e.getValue()));
            }
        }
        List<String> keys = new ArrayList<>(byPeriod.size());
        for (Map.Entry<Long, List<SeriesChunks>> e : byPeriod.entrySet()) {
            keys.add(writePeriod(tenant, e.getKey(), e.getValue(), Set.of()));
        }
        return keys;
    }

    /** Writes everything {@code head} holds for {@code tenant}; returns the keys written. */
    public List<String> writeFromHead(HeadIndex head, String tenant) throws IOException {
        return write(tenant, head.chunks(tenant, List.of(), Long.MIN_VALUE, Long.MAX_VALUE));
    }

    /**
     * Writes one file for period {@code periodNumber} holding exactly {@code series} and listing {@code superseded}
     * (object keys its refs replace); returns its key.
     */
    String writePeriod(String tenant, long periodNumber, List<SeriesChunks> series, Set<String> superseded)
            throws IOException {
        byte[] file = fileWriter.write(tenant, periodNumber, config.periodNanos(), series, superseded);
        int crc = ((file[file.length - 4] & 0xFF) << 24) | ((file[file.length - 3] & 0xFF) << 16)
                | ((file[file.length - 2] & 0xFF) << 8) | (file[file.length - 1] & 0xFF);
        String unique = String.format("%s-%013d-%08x", writerId, clock.millis(), crc);
        String key = IndexKeys.fileKey(tenant, periodNumber, unique);
        try {
            store.put(key, file);
        } finally {
            if (recent != null) {
                recent.written(key);
            }
        }
        if (written != null) {
            written.admit(key, file);
        }
        return key;
    }
}
