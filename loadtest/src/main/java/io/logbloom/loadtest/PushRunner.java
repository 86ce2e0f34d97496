package io.logbloom.loadtest;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Pushes generated logs with N connections, optionally paced to a line rate.
 *
 * <p>Producer threads generate and encode bodies into one small bounded queue per lane, before and
 * during the timed phase; {@link #prepare} returns once every queue is full, so the timed phase
 * starts with bodies ready. Sender thread {@code c} owns lane {@code c} and sends its bodies in
 * order, which keeps timestamps increasing per stream on the wire. Time a sender spends waiting
 * for an empty queue is reported as producer wait: if it is not near zero the client, not the
 * server, was the bottleneck. Producer CPU time is measured per thread. With
 * {@link PushSettings#pregenerate()} each lane's queue holds its whole share of the run and is filled
 * before the timed phase: a generator slower than the server cannot cap the measured rate. The line
 * bound's batches are split among the lanes up front (lane {@code c} of {@code n} gets
 * {@code batches / n}, one more when {@code c < batches % n}), each sender sends exactly its share and
 * the run completes when the last one is done, so two runs with the same seed push the same lines
 * (with racing lanes, which lane sent the last batches would change what is stored from run to run).
 * Without it the senders share the bound: the one that would pass it stops the run. A push refused with 429 is
 * sent again by its sender as {@link PushSettings#retry()} says (each retry counted, the push counted
 * once, with the latency of its last attempt) before the lane's next body, so streams stay ordered.
 *
 * <p>Thread-safe for its lifecycle: {@code prepare}, {@code start}, {@code awaitStopped} are called
 * once each from the run's main thread; workers share only thread-safe collaborators.
 */
final class PushRunner {
    static final String OPERATION = "push";
    // Four bodies per lane ride out a producer descheduled for a moment on a busy machine, yet keep
    // timestamps within a few requests of the send time.
    private static final int QUEUE_DEPTH_PER_LANE = 4;
    // A refused connection fails in microseconds; without a pause the senders would spin.
    private static final long TRANSPORT_FAILURE_BACKOFF_MILLIS = 20;
    // A producer with every lane full naps this long; far below one request's latency.
    private static final long PRODUCER_IDLE_MICROS = 500;
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final LogGenerator generator;
    private final PushSettings settings;
    private final LokiClient client;
    private final OperationStats stats;
    private final RunControl control;
    private final ResponsivenessWatch watch;
    private final NeedleReservoir reservoir;
    private final LineTally tally;
    private final InstantSource clock;
    private final List<BlockingQueue<Body>> queues = new ArrayList<>();
    private final List<Thread> producers = new ArrayList<>();
    private final List<Thread> senders = new ArrayList<>();
    private final LongAdder producerWaitNanos = new LongAdder();
    private final LongAdder producerCpuNanos = new LongAdder();
    private final AtomicLong linesSent = new AtomicLong();
    private final List<Long> shares = new ArrayList<>();
    private final AtomicInteger lanesDone = new AtomicInteger();
    private final RateLimiter limiter;

    PushRunner(LogGenerator generator, PushSettings settings, LokiClient client, RunStats stats, RunControl control,
            ResponsivenessWatch watch, NeedleReservoir reservoir, LineTally tally, InstantSource clock) {
        if (settings.connections() > generator.config().streams()) {
            throw new IllegalArgumentException("connections (" + settings.connections() + ") must not exceed streams ("
                    + generator.config().streams() + "): each connection owns its own streams so timestamps stay ordered");
        }
        this.generator = generator;
        this.settings = settings;
        this.client = client;
        this.stats = stats.operation(OPERATION);
        this.control = control;
        this.watch = watch;
        this.reservoir = reservoir;
        this.tally = tally;
        this.clock = clock;
        this.limiter = settings.linesPerSecond() > 0 ? new RateLimiter(settings.linesPerSecond(), System::nanoTime) : null;
    }

    /** Starts the producers and waits until every lane has bodies ready (or {@code maxWait} passed). */
    void prepare(Duration maxWait) throws InterruptedException {
        int lanes = settings.connections();
        List<GeneratorLane> allLanes = new ArrayList<>();
        for (int lane = 0; lane < lanes; lane++) {
            long quota = Long.MAX_VALUE;
            int depth = QUEUE_DEPTH_PER_LANE;
            if (settings.pregenerate()) {
                long batches = settings.maxLines() / generator.config().batchSize();
                quota = batches / lanes + (lane < batches % lanes ? 1 : 0);
                depth = Math.toIntExact(Math.max(1, quota));
            }
            shares.add(quota);
            queues.add(new ArrayBlockingQueue<>(depth));
            allLanes.add(new GeneratorLane(generator.lane(lane, lanes, clock), queues.get(lane), quota));
        }
        int producerCount = Math.min(settings.producers(), lanes);
        for (int p = 0; p < producerCount; p++) {
            List<GeneratorLane> owned = new ArrayList<>();
            for (int lane = p; lane < lanes; lane += producerCount) {
                owned.add(allLanes.get(lane));
            }
            Thread thread = new Thread(() -> produce(owned), "loadtest-producer-" + p);
            thread.setDaemon(true);
            producers.add(thread);
            thread.start();
        }
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (System.nanoTime() < deadline && !control.stopped() && !lanesReady()) {
            TimeUnit.MILLISECONDS.sleep(5);
        }
    }

    /** Whether every lane's queue is full or holds its whole share (a share of none is ready at once). */
    private boolean lanesReady() {
        for (int lane = 0; lane < queues.size(); lane++) {
            BlockingQueue<Body> queue = queues.get(lane);
            if (queue.remainingCapacity() > 0 && queue.size() < shares.get(lane)) {
                return false;
            }
        }
        return true;
    }

    /** Returns whether every body is generated before the timed phase. */
    boolean pregenerates() {
        return settings.pregenerate();
    }

    /** Starts one sender per connection. */
    void start() {
        for (int lane = 0; lane < queues.size(); lane++) {
            BlockingQueue<Body> queue = queues.get(lane);
            long share = shares.get(lane);
            Thread thread = new Thread(() -> send(queue, share), "loadtest-push-" + lane);
            thread.setDaemon(true);
            senders.add(thread);
            thread.start();
        }
    }

    /** Waits for every worker to finish after the run was stopped. */
    void awaitStopped() throws InterruptedException {
        for (Thread thread : senders) {
            thread.join();
        }
        for (Thread thread : producers) {
            thread.join();
        }
    }

    /** Returns seconds senders spent waiting for bodies (client-side bottleneck indicator). */
    double producerWaitSeconds() {
        return producerWaitNanos.sum() / 1e9;
    }

    /** Returns CPU seconds the producer threads spent generating and encoding. */
    double producerCpuSeconds() {
        return producerCpuNanos.sum() / 1e9;
    }

    private void produce(List<GeneratorLane> lanes) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuStart = threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : 0;
        try {
            while (!control.stopped() && lanes.stream().anyMatch(lane -> lane.remaining > 0)) {
                // Refill whichever lanes have room; never block on one full lane while another starves.
                boolean produced = false;
                for (GeneratorLane lane : lanes) {
                    if (lane.remaining > 0 && lane.queue.remainingCapacity() > 0) {
                        PushBatch batch = lane.lane.next();
                        Body body = new Body(settings.encoding().encode(batch), tally.count(batch));
                        if (!lane.queue.offer(body)) {
                            throw new IllegalStateException("BUG: lane queue filled by someone other than its producer");
                        }
                        lane.remaining--;
                        produced = true;
                    }
                }
                if (!produced) {
                    TimeUnit.MICROSECONDS.sleep(PRODUCER_IDLE_MICROS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            control.stop("generator failed: " + e);
        } finally {
            if (threads.isCurrentThreadCpuTimeSupported()) {
                producerCpuNanos.add(threads.getCurrentThreadCpuTime() - cpuStart);
            }
        }
    }

    /** Sends the lane's bodies: {@code share} of them (a pregenerated run), or until the run stops. */
    private void send(BlockingQueue<Body> queue, long share) {
        long taken = 0;
        try {
            while (!control.stopped()) {
                if (taken == share) {
                    if (lanesDone.incrementAndGet() == queues.size()) {
                        control.stop(RunControl.COMPLETED);
                    }
                    return;
                }
                if (limiter != null) {
                    limiter.acquire(generator.config().batchSize(), control);
                    if (control.stopped()) {
                        return;
                    }
                }
                Body queued = queue.poll();
                if (queued == null) {
                    long waitStart = System.nanoTime();
                    queued = queue.poll(POLL_NANOS, TimeUnit.NANOSECONDS);
                    producerWaitNanos.add(System.nanoTime() - waitStart);
                    if (queued == null) {
                        continue;
                    }
                }
                taken++;
                EncodedPush body = queued.push();
                if (!settings.pregenerate() && settings.maxLines() > 0
                        && linesSent.addAndGet(body.lines()) > settings.maxLines()) {
                    control.stop(RunControl.COMPLETED);
                    return;
                }
                HttpOutcome outcome = client.push(body);
                watch.observe(outcome);
                // a push taken before the run completed is retried to the end: its lines count as sent
                for (int retry = 1; settings.retry().retries(outcome.status(), retry - 1) && !control.aborted(); retry++) {
                    stats.recordRetry(outcome.errorKey(), outcome.detail());
                    if (!sleepUnlessAborted(settings.retry().delay(retry, outcome.retryAfter()))) {
                        break;
                    }
                    outcome = client.push(body);
                    watch.observe(outcome);
                }
                if (outcome.succeeded()) {
                    stats.recordSuccess(outcome.latencyNanos(), body.lines(), body.lineBytes(), body.body().length);
                    reservoir.acknowledged(body.needle(), body.lines(), body.oldestNanos(), body.newestNanos());
                    tally.acknowledged(queued.linesContaining());
                } else {
                    stats.recordFailure(outcome.errorKey(), outcome.detail(), outcome.latencyNanos(),
                            outcome.answered() ? body.body().length : 0);
                    if (!outcome.answered()) {
                        TimeUnit.MILLISECONDS.sleep(TRANSPORT_FAILURE_BACKOFF_MILLIS);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Sleeps {@code wait} in short slices; false when the run was aborted meanwhile. */
    private boolean sleepUnlessAborted(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!control.aborted()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return true;
            }
            TimeUnit.NANOSECONDS.sleep(Math.min(left, POLL_NANOS));
        }
        return false;
    }

    /** A body ready to send and, per tallied text, how many of its lines contain it. */
    private record Body(EncodedPush push, int[] linesContaining) {}

    /** A lane, its queue and the batches it may still produce. Not thread-safe: owned by one producer thread. */
    private static final class GeneratorLane {
        private final LogGenerator.Lane lane;
        private final BlockingQueue<Body> queue;
        private long remaining;

        GeneratorLane(LogGenerator.Lane lane, BlockingQueue<Body> queue, long quota) {
            this.lane = lane;
            this.queue = queue;
            this.remaining = quota;
        }
    }
}
