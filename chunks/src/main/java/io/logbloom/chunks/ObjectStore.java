package io.logbloom.chunks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A flat key → bytes store: the local filesystem by default, S3 when configured. Chunks, index
 * files and blooms are all objects. Implementations are thread-safe; a put is atomic (readers see
 * the whole object or none).
 */
public interface ObjectStore extends AutoCloseable {
    /** Stores {@code data} under {@code key}, replacing any previous object, atomically. */
    void put(String key, byte[] data) throws IOException;

    /**
     * Stores the bytes of {@code file} under {@code key}, as {@link #put(String, byte[])} does; the file is
     * left in place. The default reads the file into heap; stores override it to copy without that.
     */
    default void putFile(String key, Path file) throws IOException {
        put(key, Files.readAllBytes(file));
    }

    /** The whole object; throws {@link ObjectNotFoundException} when absent. */
    byte[] get(String key) throws IOException;

    /** {@code length} bytes from {@code offset}; throws {@link ObjectNotFoundException} when absent. */
    byte[] getRange(String key, long offset, int length) throws IOException;

    /**
     * The object's size in bytes; throws {@link ObjectNotFoundException} when absent. The default
     * fetches the whole object; stores override it with a metadata lookup.
     */
    default long size(String key) throws IOException {
        return get(key).length;
    }

    /**
     * The object's last {@code maxLength} bytes (all of it when shorter) with its size, in one request where the
     * store allows (S3's suffix range); throws {@link ObjectNotFoundException} when absent. The default asks
     * {@link #size} and then {@link #getRange}.
     */
    default ObjectTail getTail(String key, int maxLength) throws IOException {
        if (maxLength < 0) {
            throw new IllegalArgumentException("tail length is negative: " + maxLength);
        }
        long size = size(key);
        int n = (int) Math.min(size, maxLength);
        byte[] bytes = getRange(key, size - n, n);
        if (bytes.length != n) {
            throw new IOException("object '" + key + "' changed size while its tail was read");
        }
        return new ObjectTail(bytes, size);
    }

    /** Whether an object exists under {@code key}. */
    boolean exists(String key) throws IOException;

    /** Keys starting with {@code prefix}, sorted. */
    List<String> list(String prefix) throws IOException;

    /** Removes the object; no error when absent. */
    void delete(String key) throws IOException;

    /**
     * Whether reads are answered from this machine's own disk, with no network between: a reader that would wait
     * for a read at once may then read on its own thread, since handing a read of a few hundred kilobytes to a pool
     * thread and waking again costs more than the read on a busy box. Such a read cannot be cut off at a query's
     * deadline, which is why a store answering over a network (or a wrapper that cannot vouch for the store it
     * wraps) says false, as this default does.
     */
    default boolean readsAreLocal() {
        return false;
    }

    @Override
    default void close() throws IOException {}
}
