package io.logbloom.kafka;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.util.List;
import java.util.Objects;

/**
 * One Kafka record of the write path: a tenant's stream and a slice of its admitted entries.
 *
 * @param tenant the tenant id
 * @param labels the stream's labels
 * @param entries entries in push order
 */
public record PushRecord(String tenant, Labels labels, List<LogEntry> entries) {
    /** Copies. */
    public PushRecord {
        Objects.requireNonNull(tenant, "tenant is null");
        Objects.requireNonNull(labels, "labels is null");
        entries = List.copyOf(entries);
    }

    /** The record key: tenant and labels, so Kafka's partitioner hashes both and a stream stays on one partition. */
    public String key() {
        return key(tenant, labels);
    }

    /** The record key of {@code tenant}'s stream {@code labels}. */
    public static String key(String tenant, Labels labels) {
        return tenant + '\u0000' + labels;
    }
}
