package io.logbloom.compactor;

import io.logbloom.chunks.ForwardingObjectStore;
import io.logbloom.chunks.ObjectStore;
import java.io.IOException;

/**
 * A store for crash tests: puts under a prefix fail while armed (a crash at that step), and a hook runs before each
 * delete. Thread-safe as its inner store is.
 */
final class FailingStore extends ForwardingObjectStore {
    /** What a test runs before a store delete. */
    @FunctionalInterface
    interface DeleteHook {
        void before(String key) throws IOException;
    }

    volatile String failPutsUnder;
    volatile DeleteHook beforeDelete = key -> { };

    FailingStore(ObjectStore inner) {
        super(inner);
    }

    @Override
    public void put(String key, byte[] data) throws IOException {
        String prefix = failPutsUnder;
        if (prefix != null && key.startsWith(prefix)) {
            throw new IOException("injected failure putting " + key);
        }
        super.put(key, data);
    }

    @Override
    public void delete(String key) throws IOException {
        beforeDelete.before(key);
        super.delete(key);
    }
}
