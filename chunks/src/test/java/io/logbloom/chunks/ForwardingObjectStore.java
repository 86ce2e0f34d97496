package io.logbloom.chunks;

import java.io.IOException;
import java.util.List;

/**
 * A store passing every call to a delegate, for tests' fakes to override the calls they falsify (a
 * failing put, a stale list). Exported in the chunks test-jar. Thread-safe as far as the delegate is.
 */
public class ForwardingObjectStore implements ObjectStore {
    private final ObjectStore delegate;

    /** Forwards to {@code delegate}. */
    public ForwardingObjectStore(ObjectStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public void put(String key, byte[] data) throws IOException {
        delegate.put(key, data);
    }

    @Override
    public byte[] get(String key) throws IOException {
        return delegate.get(key);
    }

    @Override
    public byte[] getRange(String key, long offset, int length) throws IOException {
        return delegate.getRange(key, offset, length);
    }

    @Override
    public ObjectTail getTail(String key, int maxLength) throws IOException {
        return delegate.getTail(key, maxLength);
    }

    @Override
    public long size(String key) throws IOException {
        return delegate.size(key);
    }

    @Override
    public boolean exists(String key) throws IOException {
        return delegate.exists(key);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        return delegate.list(prefix);
    }

    @Override
    public void delete(String key) throws IOException {
        delegate.delete(key);
    }
}
