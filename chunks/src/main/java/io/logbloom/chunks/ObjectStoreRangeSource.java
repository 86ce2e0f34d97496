package io.logbloom.chunks;

import java.io.IOException;

/**
 * A {@link RangeSource} over one key of an {@link ObjectStore}: ranged gets, the size taken from
 * the caller or fetched once. Thread-safe (the size is published through a volatile field; two
 * threads may both fetch it and get the same value).
 */
final class ObjectStoreRangeSource implements RangeSource {
    private final ObjectStore store;
    private final String key;
    private volatile long size;

    ObjectStoreRangeSource(ObjectStore store, String key, long size) {
        this.store = store;
        this.key = key;
        this.size = size;
    }

    @Override
    public String name() {
        return key;
    }

    @Override
    public long size() throws IOException {
        long known = size;
        if (known < 0) {
            known = store.size(key);
            size = known;
        }
        return known;
    }

    /** One request when the size is not known yet ({@link ObjectStore#getTail}), which then learns it. */
    @Override
    public ObjectTail tail(int maxLength) throws IOException {
        if (size >= 0) {
            return RangeSource.super.tail(maxLength);
        }
        ObjectTail tail = store.getTail(key, maxLength);
        size = tail.objectSize();
        return tail;
    }

    @Override
    public byte[] read(long offset, int length) throws IOException {
        byte[] data = store.getRange(key, offset, length);
        if (data.length != length) {
            throw RangeSource.truncated(key, offset, length, data.length);
        }
        return data;
    }
}
