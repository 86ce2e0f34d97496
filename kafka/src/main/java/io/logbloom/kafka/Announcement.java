package io.logbloom.kafka;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * What a member of the cluster publishes on the compacted members topic (keyed by {@code id}),
 * as JSON: {@code {"id":"…","role":"ingester","address":"127.0.0.1:3101","partitions":[0,3],"at":1700000000000}}.
 *
 * @param id the member's unique id (one per process start)
 * @param role the member's {@code target} (only ingesters announce today)
 * @param address {@code host:port} of its HTTP server
 * @param partitions push-topic partitions it currently consumes
 * @param atMillis wall-clock time of the announcement
 */
public record Announcement(String id, String role, String address, List<Integer> partitions, long atMillis) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Copies. */
    public Announcement {
        Objects.requireNonNull(id, "id is null");
        Objects.requireNonNull(role, "role is null");
        Objects.requireNonNull(address, "address is null");
        partitions = List.copyOf(partitions);
    }

    /** The JSON form. */
    public byte[] toJson() {
        try {
            return JSON.writeValueAsBytes(new Wire(id, role, address, partitions, atMillis));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("BUG: cannot write an announcement: " + e.getMessage(), e);
        }
    }

    /** Parses the JSON form; throws {@link RecordFormatException} for anything else. */
    public static Announcement fromJson(byte[] bytes) {
        try {
            Wire w = JSON.readValue(bytes, Wire.class);
            return new Announcement(w.id, w.role, w.address, w.partitions == null ? List.of() : w.partitions, w.at);
        } catch (java.io.IOException | RuntimeException e) {
            throw new RecordFormatException("not an announcement: "
                    + new String(bytes, StandardCharsets.UTF_8).lines().findFirst().orElse("") + ": " + e.getMessage(), e);
        }
    }

    /** The JSON shape (field names of the wire format). */
    private record Wire(String id, String role, String address, List<Integer> partitions, long at) {}
}
