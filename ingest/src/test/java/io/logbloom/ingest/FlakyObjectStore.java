package io.logbloom.ingest;

import io.logbloom.chunks.ObjectStore;
import java.io.IOException;
import java.util.List;

/** A hand-written fake: delegates to a real store but fails every call while {@code down} is set. */
final class FlakyObjectStore implements ObjectStore {
    private final ObjectStore delegate;
    volatile boolean down;
    /** When set, only puts of keys with this prefix fail. */
    volatile String failPutPrefix;
    volatile int puts;

    FlakyObjectStore(ObjectStore delegate) {
        this.delegate = delegate;
    }

    private void check(String key) throws IOException {
        if (down) {
            throw new IOException("object store down (key " + key + ")");
        }
    }

    @Override
    public void put(String key, byte[] data) throws IOException {
        check(key);
        String prefix = failPutPrefix;
        if (prefix != null && key.startsWith(prefix)) {
            throw new IOException("put refused for " + key);
        }
        puts++;
        delegate.put(key, data);
    }

    @Override
    public byte[] get(String key) throws IOException {
        check(key);
        return delegate.get(key);
    }

    @Override
    public byte[] getRange(String key, long offset, int length) throws IOException {
        check(key);
        return delegate.getRange(key, offset, length);
    }

    @Override
    public boolean exists(String key) throws IOException {
        check(key);
        return delegate.exists(key);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        check(prefix);
        return delegate.list(prefix);
    }

    @Override
    public void delete(String key) throws IOException {
        check(key);
        delegate.delete(key);
    }
}
