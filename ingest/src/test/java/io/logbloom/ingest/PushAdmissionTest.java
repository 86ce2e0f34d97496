package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

final class PushAdmissionTest {
    private static final long NOW = 1_700_000_000_000_000_000L;

    @Test
    void pushesParsingANewSelectorAtOnce_allGetTheLabelsLaterPushesGet() throws Exception {
        PushAdmission admission = new PushAdmission(LimitsConfig.defaults(), Duration.ofHours(2), Clock.systemUTC());
        int threads = 4;
        int selectors = 300;
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Labels>>> raced = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                raced.add(pool.submit(() -> {
                    List<Labels> got = new ArrayList<>();
                    for (int s = 0; s < selectors; s++) {
                        start.await(); // every thread parses selector s for the first time together
                        got.add(labelsOf(admission, s));
                    }
                    return got;
                }));
            }
            for (Future<List<Labels>> f : raced) {
                List<Labels> got = f.get();
                for (int s = 0; s < selectors; s++) {
                    // the same instance, not just equal: stream maps are keyed by the instance the first push registered
                    assertThat(got.get(s)).isSameAs(labelsOf(admission, s));
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static Labels labelsOf(PushAdmission admission, int selector) {
        PushStream stream = new PushStream("{job=\"race\", pod=\"pod-" + selector + "\"}",
                List.of(LogEntry.of(NOW - 1_000_000_000L, "line")));
        PushErrors errors = new PushErrors();
        PushAdmission.Admitted admitted = admission.admit("tenant", List.of(stream), NOW, errors);
        assertThat(admitted.candidates()).hasSize(1);
        return admitted.candidates().get(0).labels;
    }
}
