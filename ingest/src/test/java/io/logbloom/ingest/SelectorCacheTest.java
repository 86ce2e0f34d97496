package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

final class SelectorCacheTest {
    @Test
    void computesOncePerText_returnsTheKeptInstance_andEmptiesWhenFull() {
        SelectorCache<String> cache = new SelectorCache<>(2);
        AtomicInteger computed = new AtomicInteger();
        String a = cache.get(new String("{a=\"1\"}"), s -> { computed.incrementAndGet(); return s + "!"; });
        assertThat(cache.get(new String("{a=\"1\"}"), s -> "other")).isSameAs(a);
        assertThat(computed).hasValue(1);
        cache.get("{b=\"2\"}", s -> "b");
        cache.get("{c=\"3\"}", s -> "c"); // full at two: emptied, then kept
        assertThat(cache.get("{a=\"1\"}", s -> "again")).isEqualTo("again");
        assertThat(cache.get("{c=\"3\"}", s -> "not again")).isEqualTo("c");
    }
}
