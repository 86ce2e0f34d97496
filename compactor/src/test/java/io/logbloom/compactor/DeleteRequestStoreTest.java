package io.logbloom.compactor;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.InMemoryObjectStore;
import java.io.IOException;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

final class DeleteRequestStoreTest {
    private final InMemoryObjectStore objects = new InMemoryObjectStore();
    private final AtomicLong millis = new AtomicLong(Instant.parse("2026-11-20T00:00:00Z").toEpochMilli());
    private final InstantSource clock = () -> Instant.ofEpochMilli(millis.get());

    private DeleteRequestStore store() {
        return new DeleteRequestStore(objects, clock, new SplittableRandom(7));
    }

    @Test
    void add_persistsPerTenant_listOldestFirst_visibleToAnotherInstance() throws IOException {
        DeleteRequestStore a = store();
        DeleteRequest first = a.add("t1", "{app=\"a\"}", 1000, 2000);
        millis.addAndGet(5);
        DeleteRequest second = a.add("t1", "{app=\"b\"} |= \"x\"", 0, 10);
        a.add("t2", "{app=\"c\"}", 0, 10);

        assertThat(first.status()).isEqualTo(DeleteRequest.STATUS_RECEIVED);
        assertThat(first.requestId()).matches("[0-9a-f]{8}");
        assertThat(objects.list("compactor/delete_requests/t1/")).hasSize(2);
        assertThat(store().list("t1")).containsExactly(first, second);
        assertThat(store().get("t1", first.requestId())).contains(first);
        assertThat(store().get("t2", first.requestId())).isEmpty();
        assertThat(store().get("t1", "../../x")).isEmpty();
    }

    @Test
    void cached_loadedOnFirstUse_otherInstancesChangesAfterRefresh_ownChangesAtOnce() throws IOException {
        DeleteRequestStore b = store();
        DeleteRequest first = b.add("t", "{app=\"a\"}", 0, 1);
        DeleteRequestStore a = store();
        assertThat(a.cached("t")).containsExactly(first); // first use loads from the store
        DeleteRequest second = b.add("t", "{app=\"b\"}", 0, 1);
        DeleteRequest other = b.add("u", "{app=\"c\"}", 0, 1);
        assertThat(a.cached("t")).containsExactly(first); // another instance's add: seen after a refresh
        int gets = objects.gets.get();
        a.cached("t");
        assertThat(objects.gets.get()).isEqualTo(gets); // served from memory
        a.refresh();
        assertThat(a.cached("t")).containsExactlyInAnyOrder(first, second);
        assertThat(a.cached("u")).containsExactly(other);
        a.remove(first);
        assertThat(a.cached("t")).containsExactly(second);
        DeleteRequest third = a.add("u", "{app=\"d\"}", 0, 1);
        assertThat(a.cached("u")).containsExactlyInAnyOrder(other, third);
        a.remove(second);
        assertThat(a.cached("t")).isEmpty();
        assertThat(objects.list("compactor/delete_requests/t/")).isEmpty();
    }

    @Test
    void namesTenantsWithARequestNewlyProcessed_hereOrElsewhere_notAdds() throws IOException {
        List<String> told = new ArrayList<>();
        DeleteRequestStore a = new DeleteRequestStore(objects, clock, new SplittableRandom(7), told::add);
        DeleteRequestStore b = store();
        DeleteRequest t1 = b.add("t1", "{app=\"a\"}", 0, 1);
        b.add("t2", "{app=\"b\"}", 0, 1);
        a.refresh(); // the first load tells nothing
        assertThat(told).isEmpty();

        b.add("t1", "{app=\"c\"}", 0, 1);
        a.refresh();
        assertThat(told).as("a new request hides lines at once: nothing to tell").isEmpty();

        b.put(t1.withStatus(DeleteRequest.STATUS_PROCESSED)); // another process's compactor finished it
        a.refresh();
        assertThat(told).containsExactly("t1");
        a.refresh();
        assertThat(told).containsExactly("t1");

        DeleteRequest own = a.add("t2", "{app=\"d\"}", 0, 1);
        a.put(own.withStatus(DeleteRequest.STATUS_PROCESSED)); // this process's pass, told as it stores the status
        assertThat(told).containsExactly("t1", "t2");
        a.refresh();
        assertThat(told).containsExactly("t1", "t2");

        DeleteRequest fresh = b.add("t3", "{app=\"e\"}", 0, 1);
        b.put(fresh.withStatus(DeleteRequest.STATUS_PROCESSED)); // added and processed between two loads
        a.refresh();
        assertThat(told).containsExactly("t1", "t2", "t3");
    }

    @Test
    void request_nanosCoverTheWholeEndMillisecond() {
        DeleteRequest r = new DeleteRequest("0000abcd", "t", "{a=\"b\"}", 5, 7, DeleteRequest.STATUS_RECEIVED, 0);
        assertThat(r.startNanos()).isEqualTo(5_000_000L);
        assertThat(r.endNanos()).isEqualTo(7_999_999L);
        assertThat(r.received()).isTrue();
    }
}
