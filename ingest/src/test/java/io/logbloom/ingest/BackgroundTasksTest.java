package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BackgroundTasksTest {
    @Test
    void runAheadOnce_runsOneTaskWhileOneAskedForHasNotStarted() throws Exception {
        ScheduledExecutorService thread = BackgroundTasks.singleThread("test-ahead");
        try {
            CountDownLatch blocker = new CountDownLatch(1);
            thread.execute(() -> await(blocker)); // the thread is busy: tasks asked for now wait
            AtomicBoolean pending = new AtomicBoolean();
            AtomicInteger runs = new AtomicInteger();
            for (int i = 0; i < 5; i++) {
                BackgroundTasks.runAheadOnce(thread, pending, runs::incrementAndGet);
            }
            assertThat(pending).isTrue();
            blocker.countDown();
            drain(thread);
            assertThat(runs).hasValue(1);
            assertThat(pending).isFalse();

            BackgroundTasks.runAheadOnce(thread, pending, runs::incrementAndGet); // asked for again once it started
            drain(thread);
            assertThat(runs).hasValue(2);
        } finally {
            thread.shutdownNow();
        }
    }

    @Test
    void runAheadOnce_onAStoppedThreadDoesNothingAndStaysAskable() {
        ScheduledExecutorService thread = BackgroundTasks.singleThread("test-stopped");
        thread.shutdown();
        AtomicBoolean pending = new AtomicBoolean();
        AtomicInteger runs = new AtomicInteger();
        BackgroundTasks.runAheadOnce(thread, pending, runs::incrementAndGet);
        assertThat(runs).hasValue(0);
        assertThat(pending).isFalse();
    }

    @Test
    void singleThread_isADaemonNamedAsAsked() throws Exception {
        ScheduledExecutorService thread = BackgroundTasks.singleThread("logbloom-test");
        try {
            Thread[] seen = new Thread[1];
            thread.submit(() -> seen[0] = Thread.currentThread()).get(10, TimeUnit.SECONDS);
            assertThat(seen[0].getName()).isEqualTo("logbloom-test");
            assertThat(seen[0].isDaemon()).isTrue();
        } finally {
            thread.shutdownNow();
        }
    }

    @Test
    void daemonThreads_numberTheirThreadsFromOne() {
        var factory = BackgroundTasks.daemonThreads(n -> "encode-" + n);
        assertThat(factory.newThread(() -> {}).getName()).isEqualTo("encode-1");
        assertThat(factory.newThread(() -> {}).getName()).isEqualTo("encode-2");
    }

    private static void drain(ScheduledExecutorService thread) throws Exception {
        thread.submit(() -> {}).get(10, TimeUnit.SECONDS); // one thread: everything before it has run
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
