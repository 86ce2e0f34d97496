package io.logbloom.ingest;

import io.logbloom.bloom.BloomFormatException;
import io.logbloom.bloom.ScalableBloomFilter;
import io.logbloom.chunks.ObjectNotFoundException;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.TenantIds;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * Reads and writes {@link SeriesBloom}s as objects {@code blooms/<tenant>/<period>/<fingerprint 16 hex>.bloom}.
 *
 * <pre>
 * file    := magic "LBSB" version:u8 flags:u8 (bit0 = n-gram mode, bit1 = word tokens) ngramLength:u8 ngramSkip:u8
 *            body crc32c:u32                          (of every preceding byte; big-endian throughout)
 * body v2 := filterCount:u32 { keyCount:u32 { keyLength:u16 key-utf8 }      (the objects the filter covers)
 *                              filterLength:u32 filter }                    (ScalableBloomFilter.serialize())
 * body v1 := keyCount:u32 { keyLength:u16 key-utf8 } filterLength:u32 filter (one filter for every key)
 * </pre>
 *
 * Version 2 holds one filter per object (several keys per filter only for a bloom first read from a
 * version-1 file); version 1 files are still read, as one filter shared by all their keys. Bit1 came
 * without a version bump: a file without it reads as "no word tokens" (sound: words are then never
 * probed). Bump {@link #VERSION} when the layout changes; an unknown version is refused with its number.
 * Thread-safe (stateless over a thread-safe {@link ObjectStore}).
 */
public final class SeriesBloomStore {
    /** Period length of series blooms: 24h UTC, as the index periods. */
    public static final long PERIOD_NANOS = 86_400_000_000_000L;
    static final int MAGIC = 0x4c425342; // "LBSB"
    /** Layout version; bump when the layout changes. */
    static final byte VERSION = 2;
    /** The first layout (one filter shared by every covered key), still read. */
    static final byte VERSION_SHARED_FILTER = 1;

    private final ObjectStore store;
    private final Stored stored;

    /** Hears of every bloom this store wrote, with a copy decoded from the bytes written. */
    @FunctionalInterface
    public interface Stored {
        /** Hears nothing. */
        Stored NONE = (tenant, fingerprint, periodNumber, bloom) -> { };

        /**
         * {@code bloom} was written as the series' bloom for the period; it is the caller's own copy (the writer
         * goes on changing its instance).
         */
        void stored(String tenant, long fingerprint, long periodNumber, SeriesBloom bloom);
    }

    /** A bloom store over {@code store}. */
    public SeriesBloomStore(ObjectStore store) {
        this(store, Stored.NONE);
    }

    /** A bloom store over {@code store} telling {@code stored} of each bloom it writes (e.g. a querier's cache). */
    public SeriesBloomStore(ObjectStore store, Stored stored) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.stored = Objects.requireNonNull(stored, "stored is null");
    }

    /** The object key of a series bloom. */
    public static String key(String tenant, long fingerprint, long periodNumber) {
        TenantIds.validate(tenant);
        return "blooms/" + tenant + "/" + periodNumber + "/" + String.format("%016x", fingerprint) + ".bloom";
    }

    /** The stored bloom of the series for the period, or empty when none was written. */
    public Optional<SeriesBloom> load(String tenant, long fingerprint, long periodNumber) throws IOException {
        String key = key(tenant, fingerprint, periodNumber);
        byte[] bytes;
        try {
            bytes = store.get(key);
        } catch (ObjectNotFoundException e) {
            return Optional.empty();
        }
        return Optional.of(decode(bytes, key));
    }

    /** Writes the bloom atomically, replacing the previous version. */
    public void store(String tenant, long fingerprint, long periodNumber, SeriesBloom bloom) throws IOException {
        String key = key(tenant, fingerprint, periodNumber);
        byte[] bytes = encode(bloom);
        store.put(key, bytes);
        if (stored != Stored.NONE) {
            stored.stored(tenant, fingerprint, periodNumber, decode(bytes, key));
        }
    }

    /** Encodes a bloom in the layout above (version 2). */
    static byte[] encode(SeriesBloom bloom) {
        // filters in the order of their first key, each with its keys (sorted): the same bloom encodes the same
        Map<ScalableBloomFilter, Integer> indexOf = new IdentityHashMap<>();
        List<ScalableBloomFilter> distinct = new ArrayList<>();
        List<List<String>> keysOf = new ArrayList<>();
        for (Map.Entry<String, ScalableBloomFilter> e : new TreeMap<>(bloom.filters()).entrySet()) {
            int index = indexOf.computeIfAbsent(e.getValue(), f -> {
                distinct.add(f);
                keysOf.add(new ArrayList<>());
                return distinct.size() - 1;
            });
            keysOf.get(index).add(e.getKey());
        }
        List<byte[]> filters = new ArrayList<>(distinct.size());
        List<List<byte[]>> keys = new ArrayList<>(distinct.size());
        int size = 4 + 4 + 4 + 4; // magic, version and settings, filter count, crc
        for (int f = 0; f < distinct.size(); f++) {
            byte[] filter = distinct.get(f).serialize();
            List<byte[]> encodedKeys = new ArrayList<>(keysOf.get(f).size());
            size += 4 + 4 + filter.length;
            for (String k : keysOf.get(f)) {
                byte[] b = k.getBytes(StandardCharsets.UTF_8);
                if (b.length > 0xffff) {
                    throw new IllegalArgumentException("chunk key longer than 65535 bytes: " + k);
                }
                encodedKeys.add(b);
                size += 2 + b.length;
            }
            filters.add(filter);
            keys.add(encodedKeys);
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putInt(MAGIC).put(VERSION).put((byte) ((bloom.ngramEnabled() ? 1 : 0) | (bloom.wordTokens() ? 2 : 0)))
                .put((byte) bloom.ngramLength()).put((byte) bloom.ngramSkip());
        out.putInt(filters.size());
        for (int f = 0; f < filters.size(); f++) {
            out.putInt(keys.get(f).size());
            for (byte[] k : keys.get(f)) {
                out.putShort((short) k.length).put(k);
            }
            out.putInt(filters.get(f).length).put(filters.get(f));
        }
        out.putInt(crc(out.array(), out.position()));
        return out.array();
    }

    /** Decodes a bloom of version 1 or 2; {@code name} is used in error messages. */
    static SeriesBloom decode(byte[] bytes, String name) throws BloomFormatException {
        if (bytes.length < 16) {
            throw new BloomFormatException("series bloom " + name + " truncated: " + bytes.length + " bytes");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes, 0, bytes.length - 4);
        if (in.getInt() != MAGIC) {
            throw new BloomFormatException("series bloom " + name + " has bad magic");
        }
        byte version = in.get();
        if (version != VERSION && version != VERSION_SHARED_FILTER) {
            throw new BloomFormatException("series bloom " + name + " has unsupported version " + version
                    + " (this reader knows " + VERSION_SHARED_FILTER + " and " + VERSION + ")");
        }
        int stored = ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt();
        if (crc(bytes, bytes.length - 4) != stored) {
            throw new BloomFormatException("series bloom " + name + " checksum mismatch");
        }
        try {
            int flags = in.get();
            boolean ngram = (flags & 1) != 0;
            boolean words = (flags & 2) != 0;
            int n = in.get() & 0xff;
            int skip = in.get() & 0xff;
            if (version == VERSION_SHARED_FILTER) {
                Set<String> covered = new HashSet<>(keys(in, bytes, name));
                ScalableBloomFilter filter = filter(in, bytes, name);
                if (in.hasRemaining()) {
                    throw new BloomFormatException("series bloom " + name + " has " + in.remaining()
                            + " bytes after its filter");
                }
                return SeriesBloom.shared(filter, covered, ngram, n, skip, words);
            }
            int filterCount = count(in, bytes, name, "filter count");
            Map<String, ScalableBloomFilter> filters = new HashMap<>(filterCount * 2);
            for (int f = 0; f < filterCount; f++) {
                List<String> covered = keys(in, bytes, name);
                ScalableBloomFilter filter = filter(in, bytes, name);
                for (String key : covered) {
                    filters.put(key, filter);
                }
            }
            if (in.hasRemaining()) {
                throw new BloomFormatException("series bloom " + name + " has " + in.remaining()
                        + " bytes after its last filter");
            }
            return new SeriesBloom(filters, ngram, n, skip, words);
        } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new BloomFormatException("series bloom " + name + " truncated at offset " + in.position());
        } catch (IllegalArgumentException e) {
            throw new BloomFormatException("series bloom " + name + " is invalid: " + e.getMessage());
        }
    }

    private static int count(ByteBuffer in, byte[] bytes, String name, String what) throws BloomFormatException {
        int count = in.getInt();
        if (count < 0 || count > bytes.length) {
            throw new BloomFormatException("series bloom " + name + " has invalid " + what + " " + count
                    + " at offset " + (in.position() - 4));
        }
        return count;
    }

    private static List<String> keys(ByteBuffer in, byte[] bytes, String name) throws BloomFormatException {
        int count = count(in, bytes, name, "chunk count");
        List<String> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int len = in.getShort() & 0xffff;
            if (len > in.remaining()) {
                throw new BloomFormatException("series bloom " + name + " truncated at offset " + in.position());
            }
            keys.add(new String(bytes, in.position(), len, StandardCharsets.UTF_8));
            in.position(in.position() + len);
        }
        return keys;
    }

    private static ScalableBloomFilter filter(ByteBuffer in, byte[] bytes, String name) throws BloomFormatException {
        int filterLength = in.getInt();
        if (filterLength < 0 || filterLength > in.remaining()) {
            throw new BloomFormatException("series bloom " + name + " has invalid filter length " + filterLength
                    + " at offset " + (in.position() - 4));
        }
        byte[] filter = new byte[filterLength];
        in.get(filter);
        return ScalableBloomFilter.deserialize(filter);
    }

    private static int crc(byte[] b, int length) {
        CRC32C crc = new CRC32C();
        crc.update(b, 0, length);
        return (int) crc.getValue();
    }
}
