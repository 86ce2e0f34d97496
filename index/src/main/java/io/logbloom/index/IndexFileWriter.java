package io.logbloom.index;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.TenantIds;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32C;

/**
 * Encodes one tenant-period's series and chunk refs into the immutable index file layout described
 * in {@link IndexFileFormat}. Stateless and thread-safe.
 */
public final class IndexFileWriter {
    /** Creates a writer. */
    public IndexFileWriter() {}

    /**
     * Encodes {@code series} (merged when a label set repeats, refs deduplicated and sorted by time) as
     * the index file of {@code tenant}'s period {@code periodNumber} of length {@code periodNanos}.
     */
    public byte[] write(String tenant, long periodNumber, long periodNanos, List<SeriesChunks> series) {
        return write(tenant, periodNumber, periodNanos, series, Set.of());
    }

    /**
     * Encodes {@code series} as {@link #write(String, long, long, List)} does, listing {@code superseded}: the
     * object keys these refs replace, whose refs readers drop from any other file (none may be among
     * {@code series}' own refs).
     */
    public byte[] write(String tenant, long periodNumber, long periodNanos, List<SeriesChunks> series,
            Set<String> superseded) {
        Objects.requireNonNull(tenant, "tenant is null");
        Objects.requireNonNull(series, "series is null");
        Objects.requireNonNull(superseded, "superseded is null");
        TenantIds.validate(tenant);
        if (periodNanos <= 0) {
            throw new IllegalArgumentException("period must be positive: " + periodNanos + "ns");
        }
        TreeMap<Labels, TreeSet<ChunkRef>> merged = new TreeMap<>();
        for (SeriesChunks s : series) {
            for (ChunkRef ref : s.chunks()) {
                if (!ref.tenant().equals(tenant)) {
                    throw new IllegalArgumentException("chunk ref " + ref.objectKey() + " of series " + s.labels()
                            + " belongs to tenant '" + ref.tenant() + "', not '" + tenant + "'");
                }
                if (superseded.contains(ref.objectKey())) {
                    throw new IllegalArgumentException("chunk ref " + ref.objectKey() + " of series " + s.labels()
                            + " refers to an object the file supersedes");
                }
            }
            merged.computeIfAbsent(s.labels(), l -> new TreeSet<>(SeriesPostings.REF_ORDER)).addAll(s.chunks());
        }

        TreeSet<String> symbolSet = new TreeSet<>();
        TreeMap<String, TreeMap<String, List<Integer>>> postings = new TreeMap<>();
        int id = 0;
        for (Labels labels : merged.keySet()) {
            for (Label label : labels.list()) {
                symbolSet.add(label.name());
                symbolSet.add(label.value());
                postings.computeIfAbsent(label.name(), n -> new TreeMap<>())
                        .computeIfAbsent(label.value(), v -> new ArrayList<>())
                        .add(id);
            }
            id++;
        }
        for (TreeSet<ChunkRef> refs : merged.values()) {
            for (ChunkRef ref : refs) {
                if (ref.isColumnar()) {
                    symbolSet.add(ref.columnarObjectKey());
                }
            }
        }
        symbolSet.addAll(superseded);
        Map<String, Integer> symbols = new HashMap<>();
        for (String symbol : symbolSet) {
            symbols.put(symbol, symbols.size());
        }

        IndexBytesOut out = new IndexBytesOut();
        out.i32(IndexFileFormat.MAGIC);
        out.u8(IndexFileFormat.VERSION);
        out.u8(0);
        out.i64(periodNumber);
        out.i64(periodNanos);
        out.string(tenant);

        out.uvarint(symbolSet.size());
        for (String symbol : symbolSet) {
            out.string(symbol);
        }

        out.uvarint(merged.size());
        for (Map.Entry<Labels, TreeSet<ChunkRef>> e : merged.entrySet()) {
            List<Label> labels = e.getKey().list();
            out.uvarint(labels.size());
            for (Label label : labels) {
                out.uvarint(symbols.get(label.name()));
                out.uvarint(symbols.get(label.value()));
            }
            long seriesFingerprint = e.getValue().isEmpty() ? e.getKey().fingerprint() : e.getValue().first().fingerprint();
            out.i64(seriesFingerprint);
            out.uvarint(e.getValue().size());
            long previousFrom = 0;
            for (ChunkRef ref : e.getValue()) {
                out.varint(ref.fromNanos() - previousFrom);
                out.uvarint(ref.throughNanos() - ref.fromNanos());
                out.i32(ref.checksum());
                out.uvarint(Integer.toUnsignedLong(ref.sizeBytes()));
                out.uvarint(Integer.toUnsignedLong(ref.entries()));
                out.uvarint(ref.fingerprint() ^ seriesFingerprint);
                out.uvarint(ref.isColumnar() ? symbols.get(ref.columnarObjectKey()) + 1L : 0);
                previousFrom = ref.fromNanos();
            }
        }

        out.uvarint(postings.size());
        for (Map.Entry<String, TreeMap<String, List<Integer>>> byName : postings.entrySet()) {
            out.uvarint(symbols.get(byName.getKey()));
            out.uvarint(byName.getValue().size());
            for (Map.Entry<String, List<Integer>> byValue : byName.getValue().entrySet()) {
                out.uvarint(symbols.get(byValue.getKey()));
                out.uvarint(byValue.getValue().size());
                int previous = 0;
                for (int seriesId : byValue.getValue()) {
                    out.uvarint(seriesId - previous);
                    previous = seriesId;
                }
            }
        }

        out.uvarint(superseded.size());
        for (String key : new TreeSet<>(superseded)) {
            out.uvarint(symbols.get(key));
        }

        CRC32C crc = new CRC32C();
        byte[] body = out.toByteArray();
        crc.update(body, 0, body.length);
        out.i32((int) crc.getValue());
        return out.toByteArray();
    }
}
