package io.logbloom.ingest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Maps an OTLP logs request onto push streams the way Loki does ({@code pkg/loghttp/push/otlp.go}):
 * resource attributes with action index_label become the stream labels, the other resource
 * attributes, the scope's attributes (plus {@code scope_name}, {@code scope_version},
 * {@code scope_dropped_attributes_count}) and the record's attributes become structured metadata;
 * attribute names have every character outside {@code [A-Za-z0-9_]} turned into {@code _} (a
 * leading digit gets {@code key_}), nested maps are flattened with {@code _}, arrays are JSON. Each
 * record keeps {@code observed_timestamp} (when both timestamps are set), {@code severity_number},
 * {@code severity_text}, {@code dropped_attributes_count}, {@code flags}, and {@code trace_id}/{@code span_id}
 * as lower-case hex. The line is the body as a string; the timestamp is {@code time_unix_nano}, else
 * {@code observed_time_unix_nano}, else the receive time. A resource with no index label gets
 * {@code service_name="unknown_service"} when service-name discovery is on (otherwise the stream has no
 * labels and the ingester rejects it). Thread-safe (immutable).
 */
public final class OtlpMapper {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final OtlpConfig config;
    private final boolean discoverServiceName;

    /** A mapper with {@code config}; {@code discoverServiceName} as in {@link PushEnrichmentConfig}. */
    public OtlpMapper(OtlpConfig config, boolean discoverServiceName) {
        this.config = Objects.requireNonNull(config, "config is null");
        this.discoverServiceName = discoverServiceName;
    }

    /** The push streams of {@code request}, entries without a timestamp stamped {@code receivedNanos}. */
    public List<PushStream> streams(ExportLogsServiceRequest request, long receivedNanos) {
        Map<String, List<LogEntry>> byStream = new LinkedHashMap<>();
        for (ResourceLogs rl : request.getResourceLogsList()) {
            TreeMap<String, String> labels = new TreeMap<>();
            List<Label> resourceMetadata = new ArrayList<>();
            for (KeyValue kv : rl.getResource().getAttributesList()) {
                switch (config.forResource(kv.getKey())) {
                    case INDEX_LABEL -> {
                        List<Label> flat = new ArrayList<>();
                        flatten(kv.getKey(), kv.getValue(), flat);
                        flat.forEach(l -> labels.put(l.name(), l.value()));
                    }
                    case STRUCTURED_METADATA -> flatten(kv.getKey(), kv.getValue(), resourceMetadata);
                    case DROP -> { }
                }
            }
            if (labels.isEmpty() && discoverServiceName) {
                labels.put(ServiceNameDiscovery.SERVICE_NAME, ServiceNameDiscovery.UNKNOWN_SERVICE);
            }
            for (ScopeLogs sl : rl.getScopeLogsList()) {
                List<Label> scopeMetadata = scopeMetadata(sl.getScope());
                for (LogRecord r : sl.getLogRecordsList()) {
                    List<Label> metadata = new ArrayList<>();
                    recordMetadata(r, metadata);
                    metadata.addAll(resourceMetadata);
                    metadata.addAll(scopeMetadata);
                    String stream = selector(labels);
                    if (config.severityTextAsLabel() && !r.getSeverityText().isEmpty()) {
                        TreeMap<String, String> withSeverity = new TreeMap<>(labels);
                        withSeverity.put("severity_text", r.getSeverityText());
                        stream = selector(withSeverity);
                    }
                    byStream.computeIfAbsent(stream, k -> new ArrayList<>())
                            .add(new LogEntry(timestamp(r, receivedNanos), bodyString(r.getBody()), metadata));
                }
            }
        }
        List<PushStream> out = new ArrayList<>(byStream.size());
        byStream.forEach((labels, entries) -> out.add(new PushStream(labels, entries)));
        return out;
    }

    private static String selector(TreeMap<String, String> labels) {
        return labels.isEmpty() ? "{}" : Labels.of(labels).toString();
    }

    private List<Label> scopeMetadata(InstrumentationScope scope) {
        List<Label> out = new ArrayList<>();
        for (KeyValue kv : scope.getAttributesList()) {
            if (config.forScope(kv.getKey()) == OtlpConfig.Action.STRUCTURED_METADATA) {
                flatten(kv.getKey(), kv.getValue(), out);
            }
        }
        if (!scope.getName().isEmpty()) {
            out.add(new Label("scope_name", scope.getName()));
        }
        if (!scope.getVersion().isEmpty()) {
            out.add(new Label("scope_version", scope.getVersion()));
        }
        if (scope.getDroppedAttributesCount() != 0) {
            out.add(new Label("scope_dropped_attributes_count", Integer.toUnsignedString(scope.getDroppedAttributesCount())));
        }
        return out;
    }

    private void recordMetadata(LogRecord r, List<Label> out) {
        for (KeyValue kv : r.getAttributesList()) {
            if (config.forLog(kv.getKey()) == OtlpConfig.Action.STRUCTURED_METADATA) {
                flatten(kv.getKey(), kv.getValue(), out);
            }
        }
        if (r.getTimeUnixNano() != 0 && r.getObservedTimeUnixNano() != 0) {
            out.add(new Label("observed_timestamp", Long.toUnsignedString(r.getObservedTimeUnixNano())));
        }
        if (r.getSeverityNumberValue() != 0) {
            out.add(new Label(LogLevelDetector.SEVERITY_NUMBER, Integer.toString(r.getSeverityNumberValue())));
        }
        if (!r.getSeverityText().isEmpty()) {
            out.add(new Label("severity_text", r.getSeverityText()));
        }
        if (r.getDroppedAttributesCount() != 0) {
            out.add(new Label("dropped_attributes_count", Integer.toUnsignedString(r.getDroppedAttributesCount())));
        }
        if (r.getFlags() != 0) {
            out.add(new Label("flags", Integer.toUnsignedString(r.getFlags())));
        }
        if (!isZero(r.getTraceId().toByteArray())) {
            out.add(new Label("trace_id", HexFormat.of().formatHex(r.getTraceId().toByteArray())));
        }
        if (!isZero(r.getSpanId().toByteArray())) {
            out.add(new Label("span_id", HexFormat.of().formatHex(r.getSpanId().toByteArray())));
        }
    }

    private static boolean isZero(byte[] id) {
        for (byte b : id) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static long timestamp(LogRecord r, long receivedNanos) {
        if (r.getTimeUnixNano() != 0) {
            return r.getTimeUnixNano();
        }
        return r.getObservedTimeUnixNano() != 0 ? r.getObservedTimeUnixNano() : receivedNanos;
    }

    /** Loki's label name for an attribute key: {@code [^A-Za-z0-9_]} to {@code _}, a leading digit prefixed {@code key_}. */
    static String labelName(String key) {
        StringBuilder sb = new StringBuilder(key.length() + 4);
        if (!key.isEmpty() && Character.isDigit(key.charAt(0))) {
            sb.append("key_");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            sb.append(c < 128 && (Character.isLetterOrDigit(c) || c == '_') ? c : '_');
        }
        return sb.toString();
    }

    private static void flatten(String key, AnyValue value, List<Label> out) {
        String name = labelName(key);
        if (value.getValueCase() == AnyValue.ValueCase.KVLIST_VALUE) {
            for (KeyValue kv : value.getKvlistValue().getValuesList()) {
                flatten(name + "_" + kv.getKey(), kv.getValue(), out);
            }
            return;
        }
        out.add(new Label(name, bodyString(value)));
    }

    /** An OTLP value as a string, as the collector's {@code pcommon.Value.AsString}. */
    static String bodyString(AnyValue v) {
        return switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case INT_VALUE -> Long.toString(v.getIntValue());
            case DOUBLE_VALUE -> doubleString(v.getDoubleValue());
            case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
            case BYTES_VALUE -> Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray());
            case ARRAY_VALUE, KVLIST_VALUE -> json(v).toString();
            case VALUE_NOT_SET -> "";
        };
    }

    private static String doubleString(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return Double.toString(d);
        }
        return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }

    private static com.fasterxml.jackson.databind.JsonNode json(AnyValue v) {
        JsonNodeFactory f = JSON.getNodeFactory();
        return switch (v.getValueCase()) {
            case STRING_VALUE -> f.textNode(v.getStringValue());
            case INT_VALUE -> f.numberNode(v.getIntValue());
            case DOUBLE_VALUE -> f.numberNode(v.getDoubleValue());
            case BOOL_VALUE -> f.booleanNode(v.getBoolValue());
            case BYTES_VALUE -> f.textNode(Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray()));
            case ARRAY_VALUE -> {
                ArrayNode a = f.arrayNode();
                v.getArrayValue().getValuesList().forEach(x -> a.add(json(x)));
                yield a;
            }
            case KVLIST_VALUE -> {
                ObjectNode o = f.objectNode();
                v.getKvlistValue().getValuesList().forEach(kv -> o.set(kv.getKey(), json(kv.getValue())));
                yield o;
            }
            case VALUE_NOT_SET -> f.nullNode();
        };
    }
}
