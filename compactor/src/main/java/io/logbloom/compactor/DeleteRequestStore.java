package io.logbloom.compactor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.logbloom.chunks.ObjectNotFoundException;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.TenantIds;
import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * Delete requests persisted in the object store, one small JSON object per request under
 * {@code compactor/delete_requests/<tenant>/<requestId>.json}, so adding or cancelling one never
 * rewrites another and several processes sharing a bucket see the same requests.
 *
 * <p>Queries must never wait on the store for them (a slow store would otherwise delay every query
 * past its deadline), so they read an in-memory snapshot of every tenant's requests: loaded on first
 * use, replaced by {@link #refresh()} (the server calls it periodically, which is how another
 * process' requests arrive) and updated at once by this process' own adds and cancels.
 *
 * <p>Thread-safe: the snapshot is an immutable map behind a volatile field; loads and updates of it
 * are serialized on this object so an older listing never replaces a newer one.
 */
public final class DeleteRequestStore {
    static final String ROOT = "compactor/delete_requests/";
    private static final String SUFFIX = ".json";

    private final ObjectStore store;
    private final InstantSource clock;
    private final RandomGenerator random;
    private final ObjectMapper json = new ObjectMapper();
    private final Consumer<String> processed;
    private volatile Map<String, List<DeleteRequest>> snapshot;

    /** A store over {@code store}; {@code random} draws request ids. */
    public DeleteRequestStore(ObjectStore store, InstantSource clock, RandomGenerator random) {
        this(store, clock, random, tenant -> { });
    }

    /**
     * As the other constructor, calling {@code processed} with each tenant that has a request newly processed
     * (found by {@link #refresh()} when another process's compactor did it, or stored by this process's own), before
     * queries stop filtering by it, so a reader keeping that tenant's index listings can let go of what the rewrite
     * replaced.
     */
    public DeleteRequestStore(ObjectStore store, InstantSource clock, RandomGenerator random,
            Consumer<String> processed) {
        this.store = Objects.requireNonNull(store, "store is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
        this.random = Objects.requireNonNull(random, "random is null");
        this.processed = Objects.requireNonNull(processed, "processed is null");
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
        return read(ROOT + tenant + "/").getOrDefault(tenant, List.of());
    }

    /** The tenant's requests from the in-memory snapshot (loaded from the store on first use). */
    public List<DeleteRequest> cached(String tenant) throws IOException {
        Map<String, List<DeleteRequest>> current = snapshot;
        if (current == null) {
            refresh();
            current = snapshot;
        }
        return current.getOrDefault(tenant, List.of());
    }

    /** Reloads every tenant's requests from the store into the snapshot. */
    public synchronized void refresh() throws IOException {
        Map<String, List<DeleteRequest>> next = read(ROOT);
        Map<String, List<DeleteRequest>> previous = snapshot;
        if (previous != null) {
            next.forEach((tenant, requests) -> {
                if (!processedIds(requests).equals(processedIds(previous.getOrDefault(tenant, List.of())))) {
                    processed.accept(tenant);
                }
            });
        }
        snapshot = next;
    }

    private static Set<String> processedIds(List<DeleteRequest> requests) {
        Set<String> ids = new HashSet<>();
        for (DeleteRequest r : requests) {
            if (!r.received()) {
                ids.add(r.requestId());
            }
        }
        return ids;
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
        reload(request.tenant());
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
        reload(request.tenant());
    }

    /** Replaces one tenant's entry of the snapshot after this process changed its requests. */
    private synchronized void reload(String tenant) throws IOException {
        if (snapshot == null) {
            refresh();
            return;
        }
        Map<String, List<DeleteRequest>> next = new HashMap<>(snapshot);
        List<DeleteRequest> requests = list(tenant);
        if (!processedIds(requests).equals(processedIds(snapshot.getOrDefault(tenant, List.of())))) {
            processed.accept(tenant); // this process's compactor: a reader keeping listings may not have seen it
        }
        if (requests.isEmpty()) {
            next.remove(tenant);
        } else {
            next.put(tenant, requests);
        }
        snapshot = Map.copyOf(next);
    }

    /** The requests under {@code prefix}, by tenant, each list oldest first. */
    private Map<String, List<DeleteRequest>> read(String prefix) throws IOException {
        Map<String, List<DeleteRequest>> byTenant = new HashMap<>();
        for (String key : store.list(prefix)) {
            int slash = key.indexOf('/', ROOT.length());
            if (!key.endsWith(SUFFIX) || slash < 0) {
                continue;
            }
            String tenant = key.substring(ROOT.length(), slash);
            try {
                byTenant.computeIfAbsent(tenant, t -> new ArrayList<>()).add(decode(tenant, key, store.get(key)));
            } catch (ObjectNotFoundException cancelledMeanwhile) {
                // cancelled between list and get: it is gone, as it should be
            }
        }
        Map<String, List<DeleteRequest>> out = new HashMap<>();
        byTenant.forEach((tenant, requests) -> {
            requests.sort(Comparator.comparingLong(DeleteRequest::createdAtMillis).thenComparing(DeleteRequest::requestId));
            out.put(tenant, List.copyOf(requests));
        });
        return Map.copyOf(out);
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
}
