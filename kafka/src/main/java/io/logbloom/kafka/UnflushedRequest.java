package io.logbloom.kafka;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.logbloom.index.LabelMatcher;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A querier's question to an ingester on {@code POST /internal/unflushed}, as JSON:
 * {@code {"tenant":"fake","from":0,"through":1700000000000000000,"matchers":[{"type":"EQUAL","name":"app","value":"a"}],
 * "offsets":{"0":42},"wait_millis":5000}}.
 *
 * @param tenant the tenant id
 * @param fromNanos start of the range (inclusive)
 * @param throughNanos end of the range (exclusive)
 * @param matchers the stream selector's matchers
 * @param offsets strong read consistency: per partition, the offset the ingester must have consumed up to
 *     (exclusive) before answering; empty for eventual consistency
 * @param waitMillis how long the ingester may wait for {@code offsets}
 * @param indexFilesSinceMillis when at or above 0, the ingester is also asked which index files of the tenant it wrote
 *     at or after that instant (epoch millis); not part of the JSON, it travels in the
 *     {@value UnflushedEndpoint#INDEX_FILES_SINCE_HEADER} header, which ingesters of earlier versions ignore
 */
public record UnflushedRequest(String tenant, long fromNanos, long throughNanos, List<LabelMatcher> matchers,
        Map<Integer, Long> offsets, long waitMillis, long indexFilesSinceMillis) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Copies. */
    public UnflushedRequest {
        Objects.requireNonNull(tenant, "tenant is null");
        matchers = List.copyOf(matchers);
        offsets = Map.copyOf(offsets);
        if (waitMillis < 0) {
            throw new RecordFormatException("invalid unflushed-data request: wait_millis must not be negative: "
                    + waitMillis);
        }
    }

    /** A request asking for no index files. */
    public UnflushedRequest(String tenant, long fromNanos, long throughNanos, List<LabelMatcher> matchers,
            Map<Integer, Long> offsets, long waitMillis) {
        this(tenant, fromNanos, throughNanos, matchers, offsets, waitMillis, -1);
    }

    /** A request with eventual consistency. */
    public UnflushedRequest(String tenant, long fromNanos, long throughNanos, List<LabelMatcher> matchers) {
        this(tenant, fromNanos, throughNanos, matchers, Map.of(), 0);
    }

    /** This request, also asking for the index files written at or after {@code sinceMillis}. */
    public UnflushedRequest withIndexFilesSince(long sinceMillis) {
        return new UnflushedRequest(tenant, fromNanos, throughNanos, matchers, offsets, waitMillis,
                Math.max(0, sinceMillis));
    }

    /** The JSON form. */
    public byte[] toJson() {
        List<WireMatcher> wire = new ArrayList<>(matchers.size());
        for (LabelMatcher m : matchers) {
            wire.add(new WireMatcher(m.type().name(), m.name(), m.value()));
        }
        try {
            return JSON.writeValueAsBytes(new Wire(tenant, fromNanos, throughNanos, wire, offsets, waitMillis));
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
        return new UnflushedRequest(w.tenant, w.from, w.through, matchers, w.offsets == null ? Map.of() : w.offsets,
                w.waitMillis);
    }

    /** The JSON shape. */
    private record Wire(String tenant, long from, long through, List<WireMatcher> matchers,
            Map<Integer, Long> offsets, @JsonProperty("wait_millis") long waitMillis) {}

    /** One matcher on the wire. */
    private record WireMatcher(String type, String name, String value) {}
}
