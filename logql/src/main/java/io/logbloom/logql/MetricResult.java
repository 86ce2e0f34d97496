package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Result of a metric query: a matrix (range query), a vector or a scalar (instant query). Immutable. */
public sealed interface MetricResult {

    /** A value at a time. */
    record Point(long timestampNanos, double value) {
    }

    /** One series of a matrix. */
    record Series(Map<String, String> metric, List<Point> points) {
        /** Copies into a sorted immutable map and list. */
        public Series {
            metric = Collections.unmodifiableMap(new TreeMap<>(requireNonNull(metric, "metric is null")));
            points = List.copyOf(points);
        }
    }

    /** One element of an instant vector. */
    record Sample(Map<String, String> metric, long timestampNanos, double value) {
        /** Copies into a sorted immutable map. */
        public Sample {
            metric = Collections.unmodifiableMap(new TreeMap<>(requireNonNull(metric, "metric is null")));
        }
    }

    /** Range query result: series ordered by labels. */
    record Matrix(List<Series> series) implements MetricResult {
        /** Copies. */
        public Matrix {
            series = List.copyOf(series);
        }
    }

    /** Instant query result; sort/sort_desc define the order, else ordered by labels. */
    record Vector(List<Sample> samples) implements MetricResult {
        /** Copies. */
        public Vector {
            samples = List.copyOf(samples);
        }
    }

    /** Instant query of a scalar expression. */
    record Scalar(long timestampNanos, double value) implements MetricResult {
    }
}
