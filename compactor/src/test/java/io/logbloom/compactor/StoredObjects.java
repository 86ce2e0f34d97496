package io.logbloom.compactor;

import io.logbloom.chunks.Chunk;
import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarBlockInfo;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.ColumnarStreamInfo;
import io.logbloom.chunks.Direction;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.RangeSource;
import io.logbloom.index.IndexConfig;
import io.logbloom.index.IndexFileCache;
import io.logbloom.index.IndexWriter;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.PersistedIndex;
import io.logbloom.index.SeriesChunks;
import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tenant's stored objects for compactor tests: puts columnar objects and their index files as the ingester's
 * merger leaves them, and reads back every row the index leads to. Not thread-safe.
 */
final class StoredObjects {
    private final ObjectStore store;
    private final IndexConfig indexConfig;
    private final InstantSource clock;
    private final String tenant;
    private int objects;

    StoredObjects(ObjectStore store, IndexConfig indexConfig, InstantSource clock, String tenant) {
        this.store = store;
        this.indexConfig = indexConfig;
        this.clock = clock;
        this.tenant = tenant;
    }

    /** Uploads one columnar object holding {@code streams} (small blocks) and indexes one ref per series. */
    String flush(Map<Labels, List<LogEntry>> streams) throws IOException {
        return flush(streams, List.copyOf(streams.keySet()));
    }

    /**
     * Uploads one columnar object holding {@code streams} and indexes one ref per series of {@code indexed} (a
     * series left out stands for one whose refs retention or a delete already dropped); returns its key.
     */
    String flush(Map<Labels, List<LogEntry>> streams, List<Labels> indexed) throws IOException {
        Map<Labels, ColumnarRows> rows = new LinkedHashMap<>();
        streams.forEach((labels, entries) -> rows.put(labels, ColumnarRows.of(entries)));
        byte[] bytes = ColumnarObjectWriter.write(ColumnarConfig.defaults().withMaxRawBytesPerBlock(64), rows);
        ColumnarDirectory directory = new ColumnarObjectReader(RangeSource.ofBytes("o", bytes)).directory();
        String key = String.format("%s/objects/%016x-ingester-%016x.lbo", tenant, directory.minTimeNanos(), ++objects);
        store.put(key, bytes);
        List<SeriesChunks> series = new ArrayList<>();
        for (ColumnarStreamInfo s : directory.streams()) {
            if (!indexed.contains(s.labels())) {
                continue;
            }
            long stored = 0;
            for (ColumnarBlockInfo b : directory.blocksOf(directory.indexOf(s.labels()))) {
                stored += b.length();
            }
            series.add(new SeriesChunks(s.labels(), List.of(new ChunkRef(tenant, s.labels().fingerprint(),
                    s.minTimeNanos(), s.maxTimeNanos(), 1, (int) stored, (int) s.rows(), key))));
        }
        new IndexWriter(store, indexConfig, clock, "ingester-" + objects).write(tenant, series);
        return key;
    }

    /** The index's answer for every series with an {@code app} label. */
    List<SeriesChunks> indexed() throws IOException {
        return new PersistedIndex(store, indexConfig, new IndexFileCache(store, indexConfig)).chunks(tenant,
                List.of(LabelMatcher.of(LabelMatcher.MatchType.REGEX, "app", ".+")), 0, Long.MAX_VALUE);
    }

    /** The distinct object keys the index refers to, sorted. */
    List<String> objectKeys() throws IOException {
        return indexed().stream().flatMap(s -> s.chunks().stream()).map(ChunkRef::objectKey).distinct().sorted()
                .toList();
    }

    /** Every stored row the index leads to, one sorted string per row (duplicates kept). */
    List<String> rows() throws IOException {
        List<String> rows = new ArrayList<>();
        for (SeriesChunks s : indexed()) {
            for (ChunkRef ref : s.chunks()) {
                List<LogEntry> entries;
                if (ref.isColumnar()) {
                    ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofObject(store, ref.objectKey()));
                    entries = reader.entries(reader.directory().indexOf(s.labels()), ref.fromNanos(), ref.throughNanos());
                } else {
                    entries = Chunk.decode(store.get(ref.objectKey())).entries(Long.MIN_VALUE, Long.MAX_VALUE,
                            Direction.FORWARD);
                }
                for (LogEntry e : entries) {
                    rows.add(s.labels() + " " + e.timestampNanos() + " " + e.line() + " " + e.metadata());
                }
            }
        }
        rows.sort(null);
        return rows;
    }
}
