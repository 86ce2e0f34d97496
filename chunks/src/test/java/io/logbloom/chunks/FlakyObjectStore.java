package io.logbloom.chunks;

import java.io.IOException;
import java.util.List;

/**
 * A hand-written fake shared by the modules' tests: delegates to a real store but fails every call
 * while {@code down} is set. Thread-safe as far as its delegate is.
 */
public final class FlakyObjectStore implements ObjectStore {
    private final ObjectStore delegate;
    /** While set, every call fails with an IOException. */
    public volatile boolean down;
    /** When set, only puts of keys with this prefix fail. */
    public volatile String failPutPrefix;
    /** Successful puts so far. */
    public volatile int puts;

    /** A store failing on demand in front of {@code delegate}. */
    public FlakyObjectStore(ObjectStore delegate) {
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
