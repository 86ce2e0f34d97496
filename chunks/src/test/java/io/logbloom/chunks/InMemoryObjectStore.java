package io.logbloom.chunks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hand-written in-memory {@link ObjectStore} fake that counts gets and lists; shared with other
 * modules through the chunks test-jar. Thread-safe.
 */
public final class InMemoryObjectStore implements ObjectStore {
    private final ConcurrentSkipListMap<String, byte[]> objects = new ConcurrentSkipListMap<>();
    /** Number of get and getRange calls. */
    public final AtomicInteger gets = new AtomicInteger();
    /** Number of list calls. */
    public final AtomicInteger lists = new AtomicInteger();
    /** The name of the thread of every get and getRange call, in call order. */
    public final java.util.Queue<String> readerThreads = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** What {@link #readsAreLocal} answers (false unless a test says otherwise). */
    public volatile boolean local;

    @Override
    public void put(String key, byte[] data) {
        objects.put(key, data.clone());
    }

    @Override
    public byte[] get(String key) throws IOException {
        gets.incrementAndGet();
        readerThreads.add(Thread.currentThread().getName());
        byte[] data = objects.get(key);
        if (data == null) {
            throw new ObjectNotFoundException(key);
        }
        return data.clone();
    }

    @Override
    public byte[] getRange(String key, long offset, int length) throws IOException {
        byte[] data = get(key);
        return Arrays.copyOfRange(data, (int) offset, (int) Math.min(data.length, offset + length));
    }

    @Override
    public boolean readsAreLocal() {
        return local;
    }

    @Override
    public long size(String key) throws IOException {
        byte[] data = objects.get(key);
        if (data == null) {
            throw new ObjectNotFoundException(key);
        }
        return data.length;
    }

    @Override
    public boolean exists(String key) {
        return objects.containsKey(key);
    }

    @Override
    public List<String> list(String prefix) {
        lists.incrementAndGet();
        List<String> keys = new ArrayList<>();
        for (String key : objects.tailMap(prefix).keySet()) {
            if (!key.startsWith(prefix)) {
                break;
            }
            keys.add(key);
        }
        return keys;
    }

    @Override
    public void delete(String key) {
        objects.remove(key);
    }
}
