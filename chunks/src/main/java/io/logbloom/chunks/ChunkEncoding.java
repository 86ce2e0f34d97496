package io.logbloom.chunks;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.xerial.snappy.Snappy;

/**
 * Compression of a chunk's blocks and symbol table. The {@link #id()} byte is written into every
 * chunk header, so ids are part of the chunk format and must never be reused or renumbered.
 * Thread-safe (stateless).
 */
public enum ChunkEncoding {
    /** No compression; useful for debugging and as a baseline in benchmarks. */
    NONE(0),
    /** Snappy (snappy-java): fast, moderate ratio; Loki's default. */
    SNAPPY(1),
    /** Gzip (java.util.zip) at the default level: slower, better ratio. */
    GZIP(2),
    /** Zstandard (zstd-jni) at level 3: near-gzip ratio at near-snappy speed; our default. */
    ZSTD(3);

    /** Zstd's own default level: a good ratio/speed balance for log text. */
    private static final int ZSTD_LEVEL = 3;

    private final int id;

    ChunkEncoding(int id) {
        this.id = id;
    }

    /** The byte that identifies this encoding in a chunk header. */
    public int id() {
        return id;
    }

    /** The encoding with header byte {@code id}; throws IllegalArgumentException naming the id when unknown. */
    public static ChunkEncoding fromId(int id) {
        for (ChunkEncoding encoding : values()) {
            if (encoding.id == id) {
                return encoding;
            }
        }
        throw new IllegalArgumentException("unknown chunk encoding id " + id);
    }

    /** The encoding named {@code name} (case-insensitive, e.g. "snappy"); throws naming the value when unknown. */
    public static ChunkEncoding parse(String name) {
        for (ChunkEncoding encoding : values()) {
            if (encoding.name().equalsIgnoreCase(name.trim())) {
                return encoding;
            }
        }
        throw new IllegalArgumentException(
                "unknown chunk encoding '" + name + "' (expected one of none, snappy, gzip, zstd)");
    }

    /** Compresses {@code data[0, length)}. */
    byte[] compress(byte[] data, int length) {
        try {
            return switch (this) {
                case NONE -> Arrays.copyOf(data, length);
                case SNAPPY -> {
                    byte[] out = new byte[Snappy.maxCompressedLength(length)];
                    int n = Snappy.compress(data, 0, length, out, 0);
                    yield Arrays.copyOf(out, n);
                }
                case GZIP -> {
                    ByteArrayOutputStream bytes = new ByteArrayOutputStream(Math.max(64, length / 4));
                    try (GZIPOutputStream gzip = new GZIPOutputStream(bytes, 8192)) {
                        gzip.write(data, 0, length);
                    }
                    yield bytes.toByteArray();
                }
                case ZSTD -> {
                    byte[] out = new byte[(int) Zstd.compressBound(length)];
                    long n = Zstd.compressByteArray(out, 0, out.length, data, 0, length, ZSTD_LEVEL);
                    if (Zstd.isError(n)) {
                        throw new IllegalStateException("BUG: zstd compression failed: " + Zstd.getErrorName(n));
                    }
                    yield Arrays.copyOf(out, (int) n);
                }
            };
        } catch (IOException e) {
            throw new IllegalStateException("BUG: in-memory " + this + " compression failed", e);
        }
    }

    /**
     * Decompresses {@code data[offset, offset+length)} into exactly {@code uncompressedLength} bytes.
     *
     * @throws IOException when the input is not valid for this encoding or has another size
     */
    byte[] decompress(byte[] data, int offset, int length, int uncompressedLength) throws IOException {
        byte[] out = new byte[uncompressedLength];
        switch (this) {
            case NONE -> {
                if (length != uncompressedLength) {
                    throw new IOException("stored length " + length + " != uncompressed length " + uncompressedLength);
                }
                System.arraycopy(data, offset, out, 0, length);
            }
            case SNAPPY -> {
                int actual;
                try {
                    actual = Snappy.uncompressedLength(data, offset, length);
                } catch (IOException | RuntimeException e) {
                    throw new IOException("invalid snappy data: " + e.getMessage(), e);
                }
                if (actual != uncompressedLength) {
                    throw new IOException("snappy length " + actual + " != expected " + uncompressedLength);
                }
                Snappy.uncompress(data, offset, length, out, 0);
            }
            case GZIP -> {
                try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(data, offset, length))) {
                    int n = in.readNBytes(out, 0, uncompressedLength);
                    if (n != uncompressedLength || in.read() != -1) {
                        throw new IOException("gzip data does not inflate to " + uncompressedLength + " bytes");
                    }
                }
            }
            case ZSTD -> {
                long n = Zstd.decompressByteArray(out, 0, uncompressedLength, data, offset, length);
                if (Zstd.isError(n)) {
                    throw new IOException("invalid zstd data: " + Zstd.getErrorName(n));
                }
                if (n != uncompressedLength) {
                    throw new IOException("zstd length " + n + " != expected " + uncompressedLength);
                }
            }
        }
        return out;
    }
}
