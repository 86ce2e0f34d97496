package io.logbloom.compactor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.logbloom.chunks.ObjectNotFoundException;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.TenantIds;
import java.io.IOException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.random.RandomGenerator;

/**
 * Delete requests persisted in the object store, one small JSON object per request under
 * {@code compactor/delete_requests/<tenant>/<requestId>.json}, so adding or cancelling one never
 * rewrites another and several processes sharing a bucket see the same requests.
 *
 * <p>Queries ask for a tenant's requests on every run, so the list is cached per tenant for
 * {@code refreshInterval}; this process' own adds and cancels update the cache at once, another
 * process' become visible within the interval. Thread-safe: the cache is a concurrent map of immutable
 * lists.
 */
public final class DeleteRequestStore {
    static final String ROOT = "compactor/delete_requests/";
    private static final String SUFFIX = ".json";

    private final ObjectStore store;
    private final InstantSource clock;
    private final Duration refreshInterval;
    private final RandomGenerator random;
    private final ObjectMapper json = new ObjectMapper();
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    /** A store over {@code store}; {@code random} draws request ids. */
    public DeleteRequestStore(ObjectStore store, InstantSource clock, Duration refreshInterval, RandomGenerator random) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.refreshInterval = Objects.requireNonNull(refreshInterval, "refreshInterval is null");
        this.random = Objects.requireNonNull(random, "random is null");
    }

    /** Persists a new {@code received} request and returns it. */
    public DeleteRequest add(String tenant, String query, long startMillis, long endMillis) throws IOException {
        TenantIds.validate(tenant);
        String id;
        do {
            id = String.format("%08x", random.nextInt());
        } while (store.exists(key(tenant, id)));
        DeleteRequest request = new DeleteRequest(id, tenant, query, startMillis, endMillis,
                DeleteRequest.STATUS_RECEIVED, clock.millis());
        put(request);
        return request;
    }

    /** Every request of {@code tenant}, oldest first, read from the store now. */
    public List<DeleteRequest> list(String tenant) throws IOException {
        TenantIds.validate(tenant);
        List<DeleteRequest> out = new ArrayList<>();
        for (String key : store.list(ROOT + tenant + "/")) {
            if (!key.endsWith(SUFFIX)) {
                continue;
            }
            try {
                out.add(decode(tenant, key, store.get(key)));
            } catch (ObjectNotFoundException cancelledMeanwhile) {
                // cancelled between list and get: it is gone, as it should be
            }
        }
        out.sort(Comparator.comparingLong(DeleteRequest::createdAtMillis).thenComparing(DeleteRequest::requestId));
        List<DeleteRequest> result = List.copyOf(out);
        cache.put(tenant, new Cached(result, clock.millis()));
        return result;
    }

    /** The tenant's requests, from the cache when it is younger than the refresh interval. */
    public List<DeleteRequest> cached(String tenant) throws IOException {
        Cached c = cache.get(tenant);
        if (c != null && clock.millis() - c.loadedAtMillis() < refreshInterval.toMillis()) {
            return c.requests();
        }
        return list(tenant);
    }

    /** The request {@code requestId} of {@code tenant}, or empty when there is none. */
    public Optional<DeleteRequest> get(String tenant, String requestId) throws IOException {
        TenantIds.validate(tenant);
        if (!requestId.matches("[0-9a-f]{8}")) {
            return Optional.empty();
        }
        try {
            return Optional.of(decode(tenant, key(tenant, requestId), store.get(key(tenant, requestId))));
        } catch (ObjectNotFoundException e) {
            return Optional.empty();
        }
    }

    /** Removes a request (a cancellation); no error when it is already gone. */
    public void remove(DeleteRequest request) throws IOException {
        store.delete(key(request.tenant(), request.requestId()));
        cache.remove(request.tenant());
    }

    /** Replaces a stored request, e.g. with a new status. */
    public void put(DeleteRequest request) throws IOException {
        ObjectNode node = json.createObjectNode();
        node.put("request_id", request.requestId());
        node.put("query", request.query());
        node.put("start_time_ms", request.startMillis());
        node.put("end_time_ms", request.endMillis());
        node.put("status", request.status());
        node.put("created_at_ms", request.createdAtMillis());
        store.put(key(request.tenant(), request.requestId()), json.writeValueAsBytes(node));
        cache.remove(request.tenant());
    }

    private DeleteRequest decode(String tenant, String key, byte[] bytes) throws IOException {
        try {
            JsonNode n = json.readTree(bytes);
            return new DeleteRequest(n.path("request_id").asText(), tenant, n.path("query").asText(),
                    n.path("start_time_ms").asLong(), n.path("end_time_ms").asLong(), n.path("status").asText(),
                    n.path("created_at_ms").asLong());
        } catch (IOException | IllegalArgumentException e) {
            throw new IOException("cannot decode delete request " + key + ": " + e.getMessage(), e);
        }
    }

    private static String key(String tenant, String requestId) {
        return ROOT + tenant + "/" + requestId + SUFFIX;
    }

    private record Cached(List<DeleteRequest> requests, long loadedAtMillis) {}
}
