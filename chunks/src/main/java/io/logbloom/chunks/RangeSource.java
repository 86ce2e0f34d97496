package io.logbloom.chunks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Random access to the bytes of one stored object, as {@link ColumnarObjectReader} needs them: the
 * size, then ranged reads (a ranged GET on S3, a positional read on a file). Implementations are
 * thread-safe.
 */
public interface RangeSource {
    /** A name for error messages: the object key or file path. */
    String name();

    /** The object's size in bytes. */
    long size() throws IOException;

    /**
     * Exactly {@code length} bytes from {@code offset}.
     *
     * @throws ChunkFormatException when the object ends before {@code offset + length}
     */
    byte[] read(long offset, int length) throws IOException;

    /**
     * The last {@code maxLength} bytes (all when the object is shorter) and the size. The default asks {@link #size}
     * and reads; a source over a store learns both from one request.
     */
    default ObjectTail tail(int maxLength) throws IOException {
        long size = size();
        int n = (int) Math.min(size, maxLength);
        return new ObjectTail(read(size - n, n), size);
    }

    /**
     * Bytes {@code [offset, offset + length)} where they lie: {@code array} holds them from index {@code from} (it may
     * hold more around them). Read-only for whoever gets it.
     */
    record Slice(byte[] array, int from) {}

    /**
     * The {@code length} bytes from {@code offset} as a {@link Slice}; a source that holds them in memory already hands
     * over its own array (no copy), the default reads them into a new one.
     *
     * @throws ChunkFormatException when the object ends before {@code offset + length}
     */
    default Slice slice(long offset, int length) throws IOException {
        return new Slice(read(offset, length), 0);
    }

    /** A source over an in-memory array (not copied; must not change afterwards). */
    static RangeSource ofBytes(String name, byte[] bytes) {
        return new BytesRangeSource(name, bytes);
    }

    /** A source over a local file, read with positional {@code FileChannel} reads; close it when done. */
    static FileRangeSource ofFile(Path path) throws IOException {
        return new FileRangeSource(path);
    }

    /** A source over {@code key} in {@code store}, its size fetched once on first use. */
    static RangeSource ofObject(ObjectStore store, String key) {
        return new ObjectStoreRangeSource(store, key, -1);
    }

    /** A source over {@code key} in {@code store} whose size is already known (for example from the index). */
    static RangeSource ofObject(ObjectStore store, String key, long size) {
        if (size < 0) {
            throw new IllegalArgumentException("object size is negative: " + size);
        }
        return new ObjectStoreRangeSource(store, key, size);
    }

    /** Throws the truncation error every source reports when a range runs past the end. */
    static ChunkFormatException truncated(String name, long offset, int length, long available) {
        return new ChunkFormatException("object " + name + " truncated: range [" + offset + ", " + (offset + length)
                + ") runs past its end (" + available + " bytes readable from " + offset + ")");
    }

    /** The source over a byte array. Thread-safe (the array is never written). */
    final class BytesRangeSource implements RangeSource {
        private final String name;
        private final byte[] bytes;

        BytesRangeSource(String name, byte[] bytes) {
            this.name = name;
            this.bytes = bytes;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public long size() {
            return bytes.length;
        }

        @Override
        public byte[] read(long offset, int length) throws ChunkFormatException {
            if (offset < 0 || length < 0 || offset + length > bytes.length) {
                throw truncated(name, offset, length, Math.max(0, bytes.length - offset));
            }
            return Arrays.copyOfRange(bytes, (int) offset, (int) offset + length);
        }

        @Override
        public Slice slice(long offset, int length) throws ChunkFormatException {
            if (offset < 0 || length < 0 || offset + length > bytes.length) {
                throw truncated(name, offset, length, Math.max(0, bytes.length - offset));
            }
            return new Slice(bytes, (int) offset);
        }
    }
}
