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
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Reads and writes {@link SeriesBloom}s as objects {@code blooms/<tenant>/<period>/<fingerprint 16 hex>.bloom}.
 *
 * <pre>
 * file    := magic "LBSB" version:u8 flags:u8 (bit0 = n-gram mode, bit1 = word tokens) ngramLength:u8 ngramSkip:u8
 *            coveredCount:u32 { keyLength:u16 key-utf8 }
 *            filterLength:u32 filter (ScalableBloomFilter.serialize(), itself checksummed)
 *            crc32c:u32                                   (of every preceding byte; big-endian throughout)
 * </pre>
 *
 * Bit1 came without a version bump: the layout is unchanged, a file without it reads as "no word
 * tokens" (sound: words are then never probed), and a reader that ignores it probes nothing new.
 * Bump {@link #VERSION} when the layout changes; an unknown version is refused with its number.
 * Thread-safe (stateless over a thread-safe {@link ObjectStore}).
 */
public final class SeriesBloomStore {
    /** Period length of series blooms: 24h UTC, as the index periods. */
    public static final long PERIOD_NANOS = 86_400_000_000_000L;
    static final int MAGIC = 0x4c425342; // "LBSB"
    /** Layout version; bump when the layout changes. */
    static final byte VERSION = 1;

    private final ObjectStore store;

    /** A bloom store over {@code store}. */
    public SeriesBloomStore(ObjectStore store) {
        this.store = Objects.requireNonNull(store, "store is null");
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
        store.put(key(tenant, fingerprint, periodNumber), encode(bloom));
    }

    /** Encodes a bloom in the layout above. */
    static byte[] encode(SeriesBloom bloom) {
        byte[] filter = bloom.filter().serialize();
        List<byte[]> keys = new ArrayList<>(bloom.coveredChunkKeys().size());
        int size = 4 + 4 + 4 + 4 + filter.length + 4;
        for (String k : bloom.coveredChunkKeys().stream().sorted().toList()) {
            byte[] b = k.getBytes(StandardCharsets.UTF_8);
            if (b.length > 0xffff) {
                throw new IllegalArgumentException("chunk key longer than 65535 bytes: " + k);
            }
            keys.add(b);
            size += 2 + b.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putInt(MAGIC).put(VERSION).put((byte) ((bloom.ngramEnabled() ? 1 : 0) | (bloom.wordTokens() ? 2 : 0)))
                .put((byte) bloom.ngramLength()).put((byte) bloom.ngramSkip());
        out.putInt(keys.size());
        for (byte[] k : keys) {
            out.putShort((short) k.length).put(k);
        }
        out.putInt(filter.length).put(filter);
        out.putInt(crc(out.array(), out.position()));
        return out.array();
    }

    /** Decodes a bloom; {@code name} is used in error messages. */
    static SeriesBloom decode(byte[] bytes, String name) throws BloomFormatException {
        if (bytes.length < 16) {
            throw new BloomFormatException("series bloom " + name + " truncated: " + bytes.length + " bytes");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        if (in.getInt() != MAGIC) {
            throw new BloomFormatException("series bloom " + name + " has bad magic");
        }
        byte version = in.get();
        if (version != VERSION) {
            throw new BloomFormatException("series bloom " + name + " has unsupported version " + version);
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
            int count = in.getInt();
            if (count < 0 || count > bytes.length) {
                throw new BloomFormatException("series bloom " + name + " has invalid chunk count " + count);
            }
            Set<String> covered = new HashSet<>(count * 2);
            for (int i = 0; i < count; i++) {
                int len = in.getShort() & 0xffff;
                covered.add(new String(bytes, in.position(), len, StandardCharsets.UTF_8));
                in.position(in.position() + len);
            }
            int filterLength = in.getInt();
            if (filterLength < 0 || filterLength != bytes.length - 4 - in.position()) {
                throw new BloomFormatException("series bloom " + name + " has invalid filter length " + filterLength
                        + " at offset " + (in.position() - 4));
            }
            byte[] filter = new byte[filterLength];
            in.get(filter);
            return new SeriesBloom(ScalableBloomFilter.deserialize(filter), covered, ngram, n, skip, words);
        } catch (java.nio.BufferUnderflowException | IndexOutOfBoundsException e) {
            throw new BloomFormatException("series bloom " + name + " truncated at offset " + in.position());
        } catch (IllegalArgumentException e) {
            throw new BloomFormatException("series bloom " + name + " is invalid: " + e.getMessage());
        }
    }

    private static int crc(byte[] b, int length) {
        CRC32C crc = new CRC32C();
        crc.update(b, 0, length);
        return (int) crc.getValue();
    }
}
