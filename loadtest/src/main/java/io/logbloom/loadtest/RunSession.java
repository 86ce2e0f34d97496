package io.logbloom.loadtest;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs workloads for a planned duration: prepares them, starts the timed phase, ticks once a
 * second (sample statistics, print progress, check the server still answers, check the deadline),
 * stops on the deadline, on Ctrl-C or when the server stopped answering, and measures wall and
 * process CPU time.
 *
 * <p>Not thread-safe: one session runs once, from one thread; the ticker thread it starts only
 * touches thread-safe collaborators.
 */
final class RunSession {
    /** A part of a run (push or query) with a prepare/start/stop lifecycle. */
    interface Workload {
        /** Does untimed preparation (for example encoding bodies ahead). */
        void prepare() throws InterruptedException;

        /** Starts the workload's threads. */
        void start();

        /** Waits for the workload's threads after the run was stopped. */
        void awaitStopped() throws InterruptedException;
    }

    /**
     * What the timed phase measured.
     *
     * @param startedAt ISO-8601 start
     * @param durationSeconds wall time of the timed phase
     * @param cpuSeconds process CPU time during the timed phase
     */
    record Timing(String startedAt, double durationSeconds, double cpuSeconds) {}

    private static final long TICK_MILLIS = 1_000;
    private static final double PLAIN_PROGRESS_SECONDS = 5;

    private final Environment environment;
    private final RunStats stats;
    private final RunControl control;
    private final ResponsivenessWatch watch;
    private final String url;
    private final Duration duration;

    RunSession(Environment environment, RunStats stats, RunControl control, ResponsivenessWatch watch, String url,
            Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive, got " + duration);
        }
        this.environment = environment;
        this.stats = stats;
        this.control = control;
        this.watch = watch;
        this.url = url;
        this.duration = duration;
    }

    /** Runs the workloads to the end and returns the timing; {@code finished} is counted down by the caller's report. */
    Timing run(List<Workload> workloads, CountDownLatch finished) throws InterruptedException {
        Thread hook = null;
        if (environment.handleInterrupt()) {
            hook = new Thread(() -> {
                control.stop("interrupted");
                try {
                    finished.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "loadtest-interrupt");
            Runtime.getRuntime().addShutdownHook(hook);
        }
        ProgressPrinter progress = new ProgressPrinter(environment.err(), environment.interactive(), PLAIN_PROGRESS_SECONDS);
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "loadtest-ticker");
            thread.setDaemon(true);
            return thread;
        });
        try {
            for (Workload workload : workloads) {
                workload.prepare();
            }
            com.sun.management.OperatingSystemMXBean os = processBean();
            long cpuStart = os == null ? 0 : os.getProcessCpuTime();
            String startedAt = environment.clock().instant().toString();
            long start = System.nanoTime();
            long deadline = start + duration.toNanos();
            stats.restart(start);
            watch.restart();
            for (Workload workload : workloads) {
                workload.start();
            }
            double planned = duration.toNanos() / 1e9;
            ticker.scheduleAtFixedRate(() -> {
                long now = System.nanoTime();
                List<TimelinePoint> points = stats.sample(now);
                progress.update((now - start) / 1e9, planned, points, stats);
                String verdict = watch.verdict(url);
                if (verdict != null) {
                    control.stop(verdict);
                }
            }, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
            while (!control.stopped()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    control.stop(RunControl.COMPLETED);
                    break;
                }
                TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
            }
            long end = System.nanoTime();
            for (Workload workload : workloads) {
                workload.awaitStopped();
            }
            ticker.shutdown();
            ticker.awaitTermination(5, TimeUnit.SECONDS);
            stats.sample(System.nanoTime());
            progress.finish();
            long cpuEnd = os == null ? 0 : os.getProcessCpuTime();
            return new Timing(startedAt, (end - start) / 1e9, Math.max(0, cpuEnd - cpuStart) / 1e9);
        } finally {
            ticker.shutdownNow();
            if (hook != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // The JVM is already shutting down (Ctrl-C): the hook is running and waits for our report.
                }
            }
        }
    }

    private static com.sun.management.OperatingSystemMXBean processBean() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean bean
                ? bean : null;
    }
}
