package io.logbloom.ingest;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What a push's selector text works out to, kept per distinct text: clients send the same few selectors in every
 * push. Emptied when it holds {@code maxEntries}, so a flood of distinct selectors costs what it would without the
 * cache, in bounded memory. When threads work out a new text at once, the first value kept wins and all of them
 * return it, so every push of a selector gets the same instance. Thread-safe; values must be immutable.
 */
final class SelectorCache<V> {
    private final int maxEntries;
    private final Map<String, V> values = new ConcurrentHashMap<>();

    SelectorCache(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be positive: " + maxEntries);
        }
        this.maxEntries = maxEntries;
    }

    /** The value kept for {@code selector}, or {@code compute}'s, kept now (computed outside any lock). */
    V get(String selector, Function<String, V> compute) {
        V value = values.get(selector);
        if (value != null) {
            return value;
        }
        value = Objects.requireNonNull(compute.apply(selector), "computed value is null");
        if (values.size() >= maxEntries) {
            values.clear();
        }
        V first = values.putIfAbsent(selector, value);
        return first != null ? first : value;
    }
}
