package io.logbloom.chunks;

import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Iterates the entries of a sequence of time-ordered blocks, loading (decompressing) each block only
 * when the iteration reaches it. Corruption found while loading surfaces as an
 * {@link UncheckedIOException} wrapping a {@link ChunkFormatException}. Not thread-safe.
 */
final class BlockIterator implements Iterator<LogEntry> {
    /** Loads one block's entries in [from, through), ascending. */
    interface Loader {
        List<LogEntry> load() throws ChunkFormatException;
    }

    private final List<Loader> loaders;
    private final Direction direction;
    private int nextLoader;
    private List<LogEntry> current = List.of();
    private int position;

    /** {@code loaders} in ascending time order. */
    BlockIterator(List<Loader> loaders, Direction direction) {
        this.loaders = loaders;
        this.direction = direction;
    }

    @Override
    public boolean hasNext() {
        while (position >= current.size()) {
            if (nextLoader >= loaders.size()) {
                return false;
            }
            int index = direction == Direction.FORWARD ? nextLoader : loaders.size() - 1 - nextLoader;
            nextLoader++;
            try {
                current = loaders.get(index).load();
            } catch (ChunkFormatException e) {
                throw new UncheckedIOException(e);
            }
            if (direction == Direction.BACKWARD) {
                Collections.reverse(current);
            }
            position = 0;
        }
        return true;
    }

    @Override
    public LogEntry next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries");
        }
        return current.get(position++);
    }
}
