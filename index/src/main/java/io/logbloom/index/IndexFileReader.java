package io.logbloom.index;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.TenantIds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * One opened index file (layout in {@link IndexFileFormat}): the whole file is verified (magic,
 * version, CRC32C, every symbol, label, id and ordering) and decoded once in {@link #open}, then
 * answers lookups from memory with the same semantics as {@link HeadIndex}. Lookups for another
 * tenant than the file's return nothing. Immutable after {@link #open}, hence thread-safe.
 */
public final class IndexFileReader implements IndexReader {
    /** Measured ratio of decoded heap to encoded size, rounded up; see {@link #estimatedHeapBytes}. */
    private static final long HEAP_BYTES_PER_ENCODED_BYTE = 6;

    private final String name;
    private final String tenant;
    private final long periodNumber;
    private final long periodNanos;
    private final int sizeBytes;
    private final int chunkRefCount;
    private final SeriesPostings postings;
    private final Set<String> superseded;

    private IndexFileReader(String name, String tenant, long periodNumber, long periodNanos, int sizeBytes,
            int chunkRefCount, SeriesPostings postings, Set<String> superseded) {
        this.name = name;
        this.tenant = tenant;
        this.periodNumber = periodNumber;
        this.periodNanos = periodNanos;
        this.sizeBytes = sizeBytes;
        this.chunkRefCount = chunkRefCount;
        this.postings = postings;
        this.superseded = superseded;
    }

    /** Verifies and decodes {@code bytes}; {@code name} (usually the object key) appears in every error message. */
    public static IndexFileReader open(String name, byte[] bytes) throws IndexFormatException {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(bytes, "bytes is null");
        int minimum = IndexFileFormat.FIXED_HEADER_BYTES + IndexFileFormat.TRAILER_BYTES;
        if (bytes.length < 4) {
            throw new IndexFormatException("index file " + name + ": truncated: " + bytes.length + " bytes");
        }
        IndexBytesIn header = new IndexBytesIn(name, bytes, 0, bytes.length);
        int magic = header.i32();
        if (magic != IndexFileFormat.MAGIC) {
            throw new IndexFormatException(String.format("index file %s: bad magic 0x%08x, expected 0x%08x", name,
                    magic, IndexFileFormat.MAGIC));
        }
        if (bytes.length < minimum) {
            throw new IndexFormatException("index file " + name + ": truncated: " + bytes.length
                    + " bytes, a file has at least " + minimum);
        }
        int version = header.u8();
        if (version != IndexFileFormat.VERSION && version != IndexFileFormat.VERSION_WITHOUT_SUPERSEDED
                && version != IndexFileFormat.VERSION_WITHOUT_OBJECT_KEYS) {
            throw new IndexFormatException("index file " + name + ": unsupported version " + version
                    + " (this reader knows version " + IndexFileFormat.VERSION + ")");
        }
        int bodyEnd = bytes.length - IndexFileFormat.TRAILER_BYTES;
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bodyEnd);
        int stored = new IndexBytesIn(name, bytes, bodyEnd, bytes.length).i32();
        if (stored != (int) crc.getValue()) {
            throw new IndexFormatException(String.format(
                    "index file %s: checksum mismatch (stored %08x, computed %08x): corrupted or truncated", name,
                    stored, (int) crc.getValue()));
        }
        try {
            return decode(name, bytes, bodyEnd, version);
        } catch (IllegalArgumentException e) {
            throw new IndexFormatException("index file " + name + ": invalid content: " + e.getMessage(), e);
        }
    }

    private static IndexFileReader decode(String name, byte[] bytes, int bodyEnd, int version) throws IndexFormatException {
        IndexBytesIn in = new IndexBytesIn(name, bytes, 5, bodyEnd);
        int flags = in.u8();
        if (flags != 0) {
            throw in.error("unknown flags " + flags);
        }
        long periodNumber = in.i64();
        long periodNanos = in.i64();
        if (periodNanos <= 0) {
            throw in.error("period " + periodNanos + "ns is not positive");
        }
        String tenant = in.string();
        TenantIds.validate(tenant);

        int symbolCount = in.count("symbol count", in.remaining());
        String[] symbols = new String[symbolCount];
        for (int i = 0; i < symbolCount; i++) {
            symbols[i] = in.string();
            if (i > 0 && symbols[i].compareTo(symbols[i - 1]) <= 0) {
                throw in.error("symbol " + i + " is not ascending");
            }
        }

        SeriesPostings postings = SeriesPostings.forFile();
        int seriesCount = in.count("series count", in.remaining());
        int refCount = 0;
        long labelPairs = 0;
        Labels previous = null;
        for (int id = 0; id < seriesCount; id++) {
            int labelCount = in.count("label count", in.remaining());
            List<Label> pairs = new ArrayList<>(labelCount);
            for (int j = 0; j < labelCount; j++) {
                String labelName = symbols[in.count("name symbol", symbolCount - 1L)];
                String labelValue = symbols[in.count("value symbol", symbolCount - 1L)];
                pairs.add(new Label(labelName, labelValue));
            }
            Labels labels = Labels.of(pairs);
            if (previous != null && labels.compareTo(previous) <= 0) {
                throw in.error("series " + labels + " is not after " + previous);
            }
            previous = labels;
            labelPairs += labelCount;
            long seriesFingerprint = in.i64();
            int refs = in.count("chunk ref count", in.remaining());
            List<ChunkRef> sorted = new ArrayList<>(refs);
            long from = 0;
            for (int r = 0; r < refs; r++) {
                from += in.varint();
                long length = in.uvarint();
                int checksum = in.i32();
                int size = in.count("chunk size", 0xFFFF_FFFFL);
                int entries = in.count("chunk entry count", 0xFFFF_FFFFL);
                long fingerprint = in.uvarint() ^ seriesFingerprint;
                if (length < 0 || from + length < from) {
                    throw in.error("chunk length " + Long.toUnsignedString(length) + " overflows");
                }
                String objectKey = null;
                if (version >= IndexFileFormat.VERSION_WITHOUT_SUPERSEDED) {
                    long symbol = in.uvarint();
                    if (symbol != 0) {
                        if (symbol > symbolCount) {
                            throw in.error("object key symbol " + Long.toUnsignedString(symbol - 1) + " out of range [0, "
                                    + (symbolCount - 1L) + "]");
                        }
                        objectKey = symbols[(int) (symbol - 1)];
                    }
                }
                ChunkRef ref;
                try {
                    ref = new ChunkRef(tenant, fingerprint, from, from + length, checksum, size, entries, objectKey);
                } catch (IllegalArgumentException e) {
                    throw in.error(e.getMessage());
                }
                if (!sorted.isEmpty() && SeriesPostings.REF_ORDER.compare(sorted.get(sorted.size() - 1), ref) >= 0) {
                    throw in.error("chunk refs of series " + labels + " are not ascending");
                }
                sorted.add(ref);
            }
            refCount += refs;
            postings.addSeriesWithoutPostings(labels, sorted);
        }

        long postingEntries = 0;
        int nameCount = in.count("postings name count", symbolCount);
        String previousName = null;
        for (int n = 0; n < nameCount; n++) {
            String labelName = symbols[in.count("postings name symbol", symbolCount - 1L)];
            if (previousName != null && labelName.compareTo(previousName) <= 0) {
                throw in.error("postings name '" + labelName + "' is not ascending");
            }
            previousName = labelName;
            int valueCount = in.count("postings value count", symbolCount);
            String previousValue = null;
            for (int v = 0; v < valueCount; v++) {
                String labelValue = symbols[in.count("postings value symbol", symbolCount - 1L)];
                if (previousValue != null && labelValue.compareTo(previousValue) <= 0) {
                    throw in.error("postings value '" + labelValue + "' of '" + labelName + "' is not ascending");
                }
                previousValue = labelValue;
                int idCount = in.count("postings length", seriesCount);
                IntList ids = new IntList(idCount);
                long seriesId = 0;
                for (int i = 0; i < idCount; i++) {
                    long delta = in.uvarint();
                    seriesId += delta;
                    if ((i > 0 && delta == 0) || delta < 0 || seriesId >= seriesCount) {
                        throw in.error("postings id " + seriesId + " of " + labelName + "=\"" + labelValue
                                + "\" is not ascending below " + seriesCount);
                    }
                    if (!labelValue.equals(postings.series((int) seriesId).labels.get(labelName))) {
                        throw in.error("postings of " + labelName + "=\"" + labelValue + "\" list series "
                                + postings.series((int) seriesId).labels);
                    }
                    ids.add((int) seriesId);
                }
                postingEntries += idCount;
                postings.putPostings(labelName, labelValue, ids);
            }
        }
        if (postingEntries != labelPairs) {
            throw in.error("postings hold " + postingEntries + " entries but series have " + labelPairs + " labels");
        }
        Set<String> superseded = version >= IndexFileFormat.VERSION ? superseded(in, symbols) : Set.of();
        if (!superseded.isEmpty()) {
            for (int id = 0; id < seriesCount; id++) {
                for (ChunkRef ref : postings.series(id).refs) {
                    if (superseded.contains(ref.objectKey())) {
                        throw in.error("series " + postings.series(id).labels + " refers to object "
                                + ref.objectKey() + ", which the file lists as superseded");
                    }
                }
            }
        }
        if (in.remaining() != 0) {
            throw in.error(in.remaining() + " unexpected trailing bytes");
        }
        return new IndexFileReader(name, tenant, periodNumber, periodNanos, bytes.length, refCount, postings,
                superseded);
    }

    private static Set<String> superseded(IndexBytesIn in, String[] symbols) throws IndexFormatException {
        int count = in.count("superseded count", symbols.length);
        Set<String> keys = new LinkedHashSet<>(count * 2);
        long previous = -1;
        for (int i = 0; i < count; i++) {
            int symbol = in.count("superseded object key symbol", symbols.length - 1L);
            if (symbol <= previous) {
                throw in.error("superseded object key symbol " + symbol + " is not ascending");
            }
            previous = symbol;
            keys.add(symbols[symbol]);
        }
        return Collections.unmodifiableSet(keys);
    }

    /** The name given to {@link #open}, usually the object key. */
    public String name() {
        return name;
    }

    /** The tenant whose index this file is. */
    public String tenant() {
        return tenant;
    }

    /** The period number this file covers. */
    public long periodNumber() {
        return periodNumber;
    }

    /** The period length the file was written with, in nanoseconds. */
    public long periodNanos() {
        return periodNanos;
    }

    /** The encoded size of the file. */
    public int sizeBytes() {
        return sizeBytes;
    }

    /**
     * Estimated heap held by this opened file: decoded series, refs and postings take about six times
     * the encoded size (measured: 7.2 MB of heap for a 1.28 MB file of 10k series and 40k refs).
     */
    public long estimatedHeapBytes() {
        return HEAP_BYTES_PER_ENCODED_BYTE * sizeBytes;
    }

    /** The number of series in the file. */
    public int seriesCount() {
        return postings.size();
    }

    /**
     * The object keys this file's refs replace (a compactor's rewrite): a reader drops refs to them found in any
     * other file it reads with this one. Empty for files a writer wrote from new data.
     */
    public Set<String> supersededObjectKeys() {
        return superseded;
    }

    /** The number of chunk refs in the file. */
    public int chunkRefCount() {
        return chunkRefCount;
    }

    @Override
    public List<SeriesChunks> chunks(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return this.tenant.equals(tenant) ? postings.chunks(matchers, fromNanos, throughNanos) : List.of();
    }

    @Override
    public List<Labels> series(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return this.tenant.equals(tenant) ? postings.series(matchers, fromNanos, throughNanos) : List.of();
    }

    @Override
    public List<String> labelNames(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return this.tenant.equals(tenant) ? postings.labelNames(matchers, fromNanos, throughNanos) : List.of();
    }

    @Override
    public List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) {
        Objects.requireNonNull(name, "name is null");
        Selectors.validateLookup(tenant, matchers, fromNanos, throughNanos);
        return this.tenant.equals(tenant) ? postings.labelValues(name, matchers, fromNanos, throughNanos) : List.of();
    }

    @Override
    public String toString() {
        return "IndexFileReader[" + name + ", tenant " + tenant + ", period " + periodNumber + ", " + seriesCount()
                + " series, " + chunkRefCount + " refs, " + sizeBytes + " bytes]";
    }
}
