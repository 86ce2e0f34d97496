package io.logbloom.compactor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.logbloom.chunks.ObjectNotFoundException;
import io.logbloom.chunks.ObjectStore;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * A lease object in the shared store ({@code compactor/lease.json}: holder and expiry) so that only one
 * compactor of the processes sharing a bucket runs a pass at a time. Acquiring succeeds when the lease is
 * absent, expired or already ours; the holder then writes its own lease and reads it back, and gives up
 * when another holder's lease is there (two writers racing: the later put wins and the earlier one sees
 * it on read-back). The object store offers no conditional put, so two holders acquiring within one
 * put-to-get window can both win; the index rewrite is safe under that (readers deduplicate refs and a
 * marked object is deleted only when no index file references it), merely wasteful.
 *
 * <p>The lease lasts {@code ttl}, longer than a pass; a crashed holder's lease expires. Thread-safe
 * (stateless over the store).
 */
public final class CompactorLease {
    static final String KEY = "compactor/lease.json";

    private final ObjectStore store;
    private final InstantSource clock;
    private final String holder;
    private final Duration ttl;
    private final ObjectMapper json = new ObjectMapper();

    /** A lease for {@code holder} lasting {@code ttl} from each acquisition. */
    public CompactorLease(ObjectStore store, InstantSource clock, String holder, Duration ttl) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.holder = Objects.requireNonNull(holder, "holder is null");
        this.ttl = Objects.requireNonNull(ttl, "ttl is null");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("lease ttl must be positive: " + ttl);
        }
    }

    /** Takes or renews the lease; false when another live holder has it. */
    public boolean acquire() throws IOException {
        Held current = read();
        long now = clock.millis();
        if (current != null && !current.holder().equals(holder) && current.expiresAtMillis() > now) {
            return false;
        }
        byte[] mine = json.writeValueAsBytes(json.createObjectNode().put("holder", holder)
                .put("expires_at_ms", now + ttl.toMillis()));
        store.put(KEY, mine);
        Held after = read();
        return after != null && after.holder().equals(holder);
    }

    /** Gives the lease up when it is ours (another holder's lease is left alone). */
    public void release() throws IOException {
        Held current = read();
        if (current != null && current.holder().equals(holder)) {
            store.delete(KEY);
        }
    }

    private Held read() throws IOException {
        byte[] bytes;
        try {
            bytes = store.get(KEY);
        } catch (ObjectNotFoundException e) {
            return null;
        }
        try {
            JsonNode n = json.readTree(bytes);
            return new Held(n.path("holder").asText(""), n.path("expires_at_ms").asLong(0));
        } catch (IOException e) {
            return null; // a damaged lease object protects nothing: treat as absent and overwrite it
        }
    }

    private record Held(String holder, long expiresAtMillis) {}
}
