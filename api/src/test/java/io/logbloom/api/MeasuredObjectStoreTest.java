package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.InMemoryObjectStore;
import io.logbloom.chunks.ObjectNotFoundException;
import io.logbloom.chunks.ObjectStore;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.io.IOException;
import org.junit.jupiter.api.Test;

final class MeasuredObjectStoreTest {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final InMemoryObjectStore backing = new InMemoryObjectStore();
    private final ObjectStore store = new MeasuredObjectStore(backing, registry);

    @Test
    void everyRequest_countedByOperationAndOutcome() throws IOException {
        store.put("t/a", new byte[] {1, 2, 3});
        store.get("t/a");
        store.get("t/a");
        assertThatThrownBy(() -> store.get("t/missing")).isInstanceOf(ObjectNotFoundException.class);
        store.getRange("t/a", 1, 1);
        assertThat(store.getTail("t/a", 2).objectSize()).isEqualTo(3);
        store.size("t/a");
        store.exists("t/a");
        assertThat(store.list("t/")).containsExactly("t/a");
        assertThatThrownBy(() -> store.getRange("t/a", -1, 1)).isInstanceOf(RuntimeException.class);
        store.delete("t/a");

        assertThat(count("put", "ok")).isEqualTo(1);
        assertThat(count("get", "ok")).isEqualTo(2);
        assertThat(count("get", "not_found")).isEqualTo(1);
        assertThat(count("get_range", "ok")).isEqualTo(1);
        assertThat(count("get_range", "error")).isEqualTo(1);
        assertThat(count("get_tail", "ok")).isEqualTo(1);
        assertThat(count("size", "ok")).isEqualTo(1);
        assertThat(count("exists", "ok")).isEqualTo(1);
        assertThat(count("list", "ok")).isEqualTo(1);
        assertThat(count("delete", "ok")).isEqualTo(1);
        assertThat(backing.list("")).isEmpty();
        assertThat(store.readsAreLocal()).isEqualTo(backing.readsAreLocal());
    }

    private long count(String operation, String outcome) {
        for (MetricSnapshot m : registry.scrape()) {
            if (m.getMetadata().getName().equals("logbloom_object_store_request_duration_seconds")) {
                for (HistogramSnapshot.HistogramDataPointSnapshot p : ((HistogramSnapshot) m).getDataPoints()) {
                    if (operation.equals(p.getLabels().get("operation")) && outcome.equals(p.getLabels().get("outcome"))) {
                        return p.getCount();
                    }
                }
            }
        }
        return -1;
    }
}
