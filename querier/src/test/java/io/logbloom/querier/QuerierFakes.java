package io.logbloom.querier;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarFileStream;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.IndexReader;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.SeriesChunks;
import java.io.IOException;
import io.logbloom.tokens.BloomTokenScheme;
import io.logbloom.tokens.WordTokens;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** Hand-written fakes of the querier's collaborators: store, index, chunk codec, blooms, token scheme. */
final class QuerierFakes {
    private QuerierFakes() {}

    /** Text chunk codec: one entry per line, {@code ts \t line \t k=v,k=v}. */
    static byte[] encode(List<LogEntry> entries) {
        StringBuilder sb = new StringBuilder();
        for (LogEntry e : entries) {
            sb.append(e.timestampNanos()).append('\t').append(e.line()).append('\t');
            for (int i = 0; i < e.metadata().size(); i++) {
                sb.append(i > 0 ? "," : "").append(e.metadata().get(i).name()).append('=')
                        .append(e.metadata().get(i).value());
            }
            sb.append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    static final ChunkDecoder DECODER = (ref, bytes, from, through) -> {
        List<LogEntry> out = new ArrayList<>();
        for (String row : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
            if (row.isEmpty()) {
                continue;
            }
            String[] parts = row.split("\t", -1);
            List<Label> md = new ArrayList<>();
            if (!parts[2].isEmpty()) {
                for (String kv : parts[2].split(",")) {
                    String[] p = kv.split("=", 2);
                    md.add(new Label(p[0], p[1]));
                }
            }
            long ts = Long.parseLong(parts[0]);
            if (ts >= from && ts < through) {
                out.add(new LogEntry(ts, parts[1], md));
            }
        }
        out.sort(SeriesReader.FORWARD);
        return out;
    };

    /** Exact token scheme: hash of key and token strings; n-grams over code points; the real word rule. */
    static final BloomTokenScheme SCHEME = new BloomTokenScheme() {
        @Override
        public long scopeHash(String scope) {
            return (long) scope.hashCode() << 32;
        }

        @Override
        public long tokenHash(String token) {
            return token.hashCode();
        }

        @Override
        public long scopedTokenHash(long scopeHash, long tokenHash) {
            return scopeHash ^ tokenHash;
        }

        @Override
        public long wordTokenHash(String word) {
            return ("word:" + word).hashCode();
        }

        @Override
        public long scopedWordHash(long scopeHash, long wordHash) {
            return scopeHash ^ wordHash;
        }

        @Override
        public List<String> provenWords(String literal) {
            return WordTokens.provenWords(literal);
        }

        @Override
        public List<List<String>> ngramAlignments(String literal, int n, int skip) {
            int[] cps = literal.codePoints().toArray();
            List<List<String>> out = new ArrayList<>();
            for (int align = 0; align <= skip; align++) {
                List<String> grams = new ArrayList<>();
                for (int i = align; i + n <= cps.length; i += skip + 1) {
                    grams.add(new String(cps, i, n));
                }
                out.add(grams);
            }
            return out;
        }
    };

    /** Exact (no false positives) bloom over a hash set. */
    static final class SetBloom implements SeriesBloomView {
        final Set<Long> hashes = ConcurrentHashMap.newKeySet();
        final Set<String> covered = ConcurrentHashMap.newKeySet();
        final int ngram;
        final boolean words;

        SetBloom(int ngram, boolean words) {
            this.ngram = ngram;
            this.words = words;
        }

        @Override
        public boolean covers(String objectKey) {
            return covered.contains(objectKey);
        }

        @Override
        public boolean mightContain(String objectKey, long hash) {
            return hashes.contains(hash);
        }

        @Override
        public boolean ngramEnabled() {
            return ngram > 0;
        }

        @Override
        public int ngramLength() {
            return ngram;
        }

        @Override
        public int ngramSkip() {
            return 0;
        }

        @Override
        public boolean wordTokens() {
            return words;
        }

        @Override
        public long sizeBytes() {
            return 16L * hashes.size() + 100;
        }
    }

    /** A tiny storage: index, store and blooms written like the ingester would. */
    static final class Storage implements IndexReader, SeriesBloomSource, UnflushedSource {
        final InMemoryObjectStore store = new InMemoryObjectStore();
        final Map<Labels, List<ChunkRef>> chunks = new TreeMap<>();
        final Map<String, SetBloom> blooms = new HashMap<>();
        final Map<Labels, List<LogEntry>> memory = new TreeMap<>();
        final Map<Labels, List<ColumnarFileStream>> parts = new TreeMap<>();
        final String memoryTenant = "t1";
        final int ngram;
        final boolean words;
        final AtomicInteger bloomLoads = new AtomicInteger();
        /** When set, {@link #chunks} answers in reverse label order (a real index answers in label order). */
        boolean reversedIndex;
        /** What {@link #answersInProcess} answers. */
        volatile boolean inProcess;
        /** The name of the thread of every {@link #chunks} call (an index lookup), in call order. */
        final java.util.Queue<String> indexThreads = new java.util.concurrent.ConcurrentLinkedQueue<>();

        Storage(int ngram) {
            this(ngram, false);
        }

        Storage(int ngram, boolean words) {
            this.ngram = ngram;
            this.words = words;
        }

        /** Flushes {@code entries} of {@code labels} as one chunk, tokenized into the series bloom. */
        ChunkRef flush(String tenant, Labels labels, List<LogEntry> entries) {
            byte[] bytes = encode(entries);
            long from = entries.stream().mapToLong(LogEntry::timestampNanos).min().orElseThrow();
            long through = entries.stream().mapToLong(LogEntry::timestampNanos).max().orElseThrow();
            ChunkRef ref = new ChunkRef(tenant, labels.fingerprint(), from, through,
                    Arrays.hashCode(bytes), bytes.length, entries.size());
            store.put(ref.objectKey(), bytes);
            chunks.computeIfAbsent(labels, k -> new ArrayList<>()).add(ref);
            SetBloom bloom = blooms.computeIfAbsent(
                    tenant + "/" + labels.fingerprint() + "/" + Math.floorDiv(from, StoreReader.PERIOD_NANOS),
                    k -> new SetBloom(ngram, words));
            for (LogEntry e : entries) {
                for (Label md : e.metadata()) {
                    bloom.hashes.add(SCHEME.chunkScopedHash(ref.objectKey(), md.name()));
                    bloom.hashes.add(SCHEME.chunkScopedHash(ref.objectKey(), md.name() + "=" + md.value()));
                }
                if (words) {
                    for (String w : WordTokens.words(e.line())) {
                        bloom.hashes.add(SCHEME.wordHash(ref.objectKey(), w));
                    }
                }
                if (ngram > 0) {
                    for (String g : SCHEME.ngramAlignments(e.line(), ngram, 0).get(0)) {
                        bloom.hashes.add(SCHEME.chunkScopedHash(ref.objectKey(), g));
                    }
                }
            }
            bloom.covered.add(ref.objectKey());
            return ref;
        }

        /**
         * Flushes {@code streams} of {@code tenant} as one columnar object (many series, blocks of at
         * most {@code rowsPerBlock} rows), indexed per series like the ingester's merger does.
         */
        String flushColumnar(String tenant, Map<Labels, List<LogEntry>> streams, int rowsPerBlock) throws IOException {
            Map<Labels, ColumnarRows> rows = new HashMap<>();
            streams.forEach((labels, entries) -> rows.put(labels, ColumnarRows.of(entries)));
            byte[] bytes = ColumnarObjectWriter.write(new ColumnarConfig(rowsPerBlock,
                    ColumnarConfig.DEFAULT_MAX_RAW_BYTES_PER_BLOCK, ColumnarConfig.DEFAULT_ZSTD_LEVEL), rows);
            String key = tenant + "/objects/" + Integer.toHexString(Arrays.hashCode(bytes)) + ".lbo";
            store.put(key, bytes);
            streams.forEach((labels, entries) -> {
                long from = entries.stream().mapToLong(LogEntry::timestampNanos).min().orElseThrow();
                long through = entries.stream().mapToLong(LogEntry::timestampNanos).max().orElseThrow();
                chunks.computeIfAbsent(labels, k -> new ArrayList<>()).add(new ChunkRef(tenant, labels.fingerprint(),
                        from, through, Arrays.hashCode(bytes), bytes.length, entries.size(), key));
            });
            return key;
        }

        /**
         * Writes {@code streams} as one local part file under {@code dir} (blocks of at most {@code rowsPerBlock}
         * rows), served as unflushed data like an ingester's sealed part.
         */
        void sealPart(java.nio.file.Path dir, Map<Labels, List<LogEntry>> streams, int rowsPerBlock)
                throws IOException {
            Map<Labels, ColumnarRows> rows = new HashMap<>();
            streams.forEach((labels, entries) -> rows.put(labels, ColumnarRows.of(entries)));
            byte[] bytes = ColumnarObjectWriter.write(new ColumnarConfig(rowsPerBlock,
                    ColumnarConfig.DEFAULT_MAX_RAW_BYTES_PER_BLOCK, ColumnarConfig.DEFAULT_ZSTD_LEVEL), rows);
            java.nio.file.Path file = dir.resolve("part-" + Integer.toHexString(Arrays.hashCode(bytes)) + ".lbp");
            java.nio.file.Files.write(file, bytes);
            io.logbloom.chunks.ColumnarDirectory directory;
            try (io.logbloom.chunks.FileRangeSource source = io.logbloom.chunks.RangeSource.ofFile(file)) {
                directory = new io.logbloom.chunks.ColumnarObjectReader(source).directory();
            }
            for (Labels labels : streams.keySet()) {
                parts.computeIfAbsent(labels, k -> new ArrayList<>())
                        .add(new ColumnarFileStream(file, directory, directory.indexOf(labels)));
            }
        }

        @Override
        public Optional<SeriesBloomView> load(String tenant, long fingerprint, long periodNumber) {
            bloomLoads.incrementAndGet();
            return Optional.ofNullable(blooms.get(tenant + "/" + fingerprint + "/" + periodNumber));
        }

        private static boolean matches(Labels labels, List<LabelMatcher> matchers) {
            return matchers.stream().allMatch(m -> m.matches(labels));
        }

        @Override
        public List<SeriesChunks> chunks(String tenant, List<LabelMatcher> matchers, long from, long through) {
            indexThreads.add(Thread.currentThread().getName());
            List<SeriesChunks> out = new ArrayList<>();
            chunks.forEach((labels, refs) -> {
                List<ChunkRef> in = refs.stream()
                        .filter(r -> r.tenant().equals(tenant) && r.overlaps(from, through)).toList();
                if (!in.isEmpty() && matches(labels, matchers)) {
                    out.add(new SeriesChunks(labels, in));
                }
            });
            if (reversedIndex) {
                java.util.Collections.reverse(out);
            }
            return out;
        }

        @Override
        public List<Labels> series(String tenant, List<LabelMatcher> matchers, long from, long through) {
            return chunks(tenant, matchers, from, through).stream().map(SeriesChunks::labels).toList();
        }

        @Override
        public List<String> labelNames(String tenant, List<LabelMatcher> matchers, long from, long through) {
            Set<String> names = new TreeSet<>();
            series(tenant, matchers, from, through).forEach(l -> names.addAll(l.names()));
            return List.copyOf(names);
        }

        @Override
        public List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long from,
                long through) {
            Set<String> values = new TreeSet<>();
            series(tenant, matchers, from, through).forEach(l -> {
                if (l.get(name) != null) {
                    values.add(l.get(name));
                }
            });
            return List.copyOf(values);
        }

        @Override
        public boolean answersInProcess() {
            return inProcess;
        }

        @Override
        public List<Stream> unflushed(String tenant, List<LabelMatcher> matchers, long from, long through) {
            List<Stream> out = new ArrayList<>();
            if (!tenant.equals(memoryTenant)) {
                return out;
            }
            Set<Labels> streams = new TreeSet<>(memory.keySet());
            streams.addAll(parts.keySet());
            for (Labels labels : streams) {
                if (matches(labels, matchers)) {
                    out.add(new Stream(labels, memory.getOrDefault(labels, List.of()).stream()
                            .filter(e -> e.timestampNanos() >= from && e.timestampNanos() < through).toList(),
                            parts.getOrDefault(labels, List.of())));
                }
            }
            return out;
        }
    }

    static Set<Long> none() {
        return new HashSet<>();
    }
}
