package io.logbloom.logql;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Map;

/**
 * One stream's samples as a source answers a {@link LineCountQuery}: {@code size} (timestamp, value) pairs, in any
 * order. The arrays are owned by this value after construction; do not modify them.
 *
 * @param labels the stream's labels
 * @param timestamps sample timestamps (the first {@code size} are used)
 * @param values sample values (the first {@code size} are used)
 * @param size number of samples
 */
public record StreamSamples(Map<String, String> labels, long[] timestamps, double[] values, int size) {
    /** Validates. */
    public StreamSamples {
        requireNonNull(labels, "labels is null");
        if (size < 0 || size > timestamps.length || size > values.length) {
            throw new IllegalArgumentException("size " + size + " outside the arrays");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StreamSamples s && s.size == size && s.labels.equals(labels)
                && Arrays.equals(s.timestamps, 0, size, timestamps, 0, size)
                && Arrays.equals(s.values, 0, size, values, 0, size);
    }

    @Override
    public int hashCode() {
        return labels.hashCode() * 31 + size;
    }

    @Override
    public String toString() {
        return "StreamSamples" + labels + "[" + size + "]";
    }
}
