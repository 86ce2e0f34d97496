package io.logbloom.api;

import io.logbloom.chunks.ObjectNotFoundException;
import io.logbloom.chunks.ObjectStore;
import io.logbloom.chunks.ObjectTail;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * An object store timing every request it passes on, as {@code logbloom_object_store_request_duration_seconds}
 * by operation and outcome (Loki's {@code loki_s3_request_duration_seconds}): what an operator reads to see how many
 * requests, of which kind, the server sends to the bucket (S3 bills per request) and how long they take. Requests
 * answered from a cache above this store are not counted. Thread-safe as far as the wrapped store is.
 */
final class MeasuredObjectStore implements ObjectStore {
    /** The requests, as the {@code operation} label names them. */
    enum Operation {
        GET, GET_RANGE, GET_TAIL, SIZE, EXISTS, LIST, PUT, DELETE;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A request's {@code outcome} label: answered, the object absent, or failed. */
    enum Outcome {
        OK, NOT_FOUND, ERROR;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final ObjectStore delegate;
    /** Per operation and outcome, resolved once: a label lookup per block read would cost more than the timing. */
    private final DistributionDataPoint[][] points;

    /** Wraps {@code delegate}, registering the histogram on {@code registry}. */
    MeasuredObjectStore(ObjectStore delegate, PrometheusRegistry registry) {
        this.delegate = Objects.requireNonNull(delegate, "delegate is null");
        Histogram duration = Histogram.builder().name("logbloom_object_store_request_duration_seconds")
                .help("Requests sent to the object store by operation (get, get_range, get_tail, size, exists, list,"
                        + " put, delete) and outcome (ok, not_found, error), and how long they took")
                .labelNames("operation", "outcome").register(registry);
        points = new DistributionDataPoint[Operation.values().length][Outcome.values().length];
        for (Operation op : Operation.values()) {
            for (Outcome outcome : Outcome.values()) {
                points[op.ordinal()][outcome.ordinal()] = duration.labelValues(op.label(), outcome.label());
            }
        }
    }

    /** A request, run and timed. */
    @FunctionalInterface
    private interface Request<T> {
        T run() throws IOException;
    }

    private <T> T measured(Operation op, Request<T> request) throws IOException {
        long start = System.nanoTime();
        Outcome outcome = Outcome.ERROR;
        try {
            T result = request.run();
            outcome = Outcome.OK;
            return result;
        } catch (ObjectNotFoundException e) {
            outcome = Outcome.NOT_FOUND;
            throw e;
        } finally {
            points[op.ordinal()][outcome.ordinal()].observe((System.nanoTime() - start) / 1e9);
        }
    }

    @Override
    public void put(String key, byte[] data) throws IOException {
        measured(Operation.PUT, () -> {
            delegate.put(key, data);
            return null;
        });
    }

    @Override
    public void putFile(String key, Path file) throws IOException {
        measured(Operation.PUT, () -> {
            delegate.putFile(key, file);
            return null;
        });
    }

    @Override
    public byte[] get(String key) throws IOException {
        return measured(Operation.GET, () -> delegate.get(key));
    }

    @Override
    public byte[] getRange(String key, long offset, int length) throws IOException {
        return measured(Operation.GET_RANGE, () -> delegate.getRange(key, offset, length));
    }

    @Override
    public ObjectTail getTail(String key, int maxLength) throws IOException {
        return measured(Operation.GET_TAIL, () -> delegate.getTail(key, maxLength));
    }

    @Override
    public long size(String key) throws IOException {
        return measured(Operation.SIZE, () -> delegate.size(key));
    }

    @Override
    public boolean exists(String key) throws IOException {
        return measured(Operation.EXISTS, () -> delegate.exists(key));
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        return measured(Operation.LIST, () -> delegate.list(prefix));
    }

    @Override
    public void delete(String key) throws IOException {
        measured(Operation.DELETE, () -> {
            delegate.delete(key);
            return null;
        });
    }

    @Override
    public boolean readsAreLocal() {
        return delegate.readsAreLocal();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
