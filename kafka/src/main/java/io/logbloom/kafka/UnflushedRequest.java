package io.logbloom.kafka;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.logbloom.index.LabelMatcher;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A querier's question to an ingester on {@code POST /internal/unflushed}, as JSON:
 * {@code {"tenant":"fake","from":0,"through":1700000000000000000,"matchers":[{"type":"EQUAL","name":"app","value":"a"}]}}.
 *
 * @param tenant the tenant id
 * @param fromNanos start of the range (inclusive)
 * @param throughNanos end of the range (exclusive)
 * @param matchers the stream selector's matchers
 */
public record UnflushedRequest(String tenant, long fromNanos, long throughNanos, List<LabelMatcher> matchers) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Copies. */
    public UnflushedRequest {
        Objects.requireNonNull(tenant, "tenant is null");
        matchers = List.copyOf(matchers);
    }

    /** The JSON form. */
    public byte[] toJson() {
        List<WireMatcher> wire = new ArrayList<>(matchers.size());
        for (LabelMatcher m : matchers) {
            wire.add(new WireMatcher(m.type().name(), m.name(), m.value()));
        }
        try {
            return JSON.writeValueAsBytes(new Wire(tenant, fromNanos, throughNanos, wire));
        } catch (IOException e) {
            throw new IllegalStateException("BUG: cannot write an unflushed-data request: " + e.getMessage(), e);
        }
    }

    /** Parses the JSON form; throws {@link RecordFormatException} naming what is wrong. */
    public static UnflushedRequest fromJson(byte[] body) {
        Wire w;
        try {
            w = JSON.readValue(body, Wire.class);
        } catch (IOException e) {
            throw new RecordFormatException("invalid unflushed-data request: " + e.getMessage(), e);
        }
        if (w == null || w.tenant == null || w.matchers == null) {
            throw new RecordFormatException("invalid unflushed-data request: tenant and matchers are required");
        }
        List<LabelMatcher> matchers = new ArrayList<>(w.matchers.size());
        for (WireMatcher m : w.matchers) {
            try {
                matchers.add(LabelMatcher.of(LabelMatcher.MatchType.valueOf(m.type), m.name, m.value));
            } catch (RuntimeException e) {
                throw new RecordFormatException("invalid unflushed-data request: matcher " + m + ": " + e.getMessage(), e);
            }
        }
        return new UnflushedRequest(w.tenant, w.from, w.through, matchers);
    }

    /** The JSON shape. */
    private record Wire(String tenant, long from, long through, List<WireMatcher> matchers) {}

    /** One matcher on the wire. */
    private record WireMatcher(String type, String name, String value) {}
}
