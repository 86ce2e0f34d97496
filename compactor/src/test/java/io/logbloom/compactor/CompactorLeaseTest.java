package io.logbloom.compactor;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.InMemoryObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class CompactorLeaseTest {
    private final InMemoryObjectStore store = new InMemoryObjectStore();
    private final AtomicLong millis = new AtomicLong(1_000_000);
    private final InstantSource clock = () -> Instant.ofEpochMilli(millis.get());

    @Test
    void acquire_secondHolderRefusedUntilReleaseOrExpiry() throws IOException {
        CompactorLease a = new CompactorLease(store, clock, "a", Duration.ofMinutes(5));
        CompactorLease b = new CompactorLease(store, clock, "b", Duration.ofMinutes(5));
        assertThat(a.acquire()).isTrue();
        assertThat(a.acquire()).isTrue(); // renewing one's own lease
        assertThat(b.acquire()).isFalse();
        b.release(); // not b's: left alone
        assertThat(b.acquire()).isFalse();
        a.release();
        assertThat(b.acquire()).isTrue();
        millis.addAndGet(Duration.ofMinutes(5).toMillis());
        assertThat(a.acquire()).isTrue(); // b crashed: its lease expired
    }

    @Test
    void acquire_damagedLeaseObject_overwritten() throws IOException {
        store.put(CompactorLease.KEY, "not json".getBytes(StandardCharsets.UTF_8));
        assertThat(new CompactorLease(store, clock, "a", Duration.ofMinutes(1)).acquire()).isTrue();
    }
}
