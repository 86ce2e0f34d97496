package io.logbloom.api;

import io.logbloom.chunks.ObjectStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;

/**
 * A hand-written fault injector: delegates to a real store, sleeping {@link #readLatencyMillis} before
 * every read ({@code get}, {@code getRange}, {@code exists}, {@code list}) while it is set, as a slow
 * or overloaded object store would answer. Writes are not delayed. Thread-safe.
 */
final class SlowObjectStore implements ObjectStore {
    private final ObjectStore delegate;
    volatile long readLatencyMillis;

    SlowObjectStore(ObjectStore delegate) {
        this.delegate = delegate;
    }

    private void delay() throws IOException {
        long millis = readLatencyMillis;
        if (millis > 0) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while the slow store was waiting");
            }
        }
    }

    @Override
    public void put(String key, byte[] data) throws IOException {
        delegate.put(key, data);
    }

    @Override
    public byte[] get(String key) throws IOException {
        delay();
        return delegate.get(key);
    }

    @Override
    public byte[] getRange(String key, long offset, int length) throws IOException {
        delay();
        return delegate.getRange(key, offset, length);
    }

    @Override
    public boolean exists(String key) throws IOException {
        delay();
        return delegate.exists(key);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        delay();
        return delegate.list(prefix);
    }

    @Override
    public void delete(String key) throws IOException {
        delegate.delete(key);
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
