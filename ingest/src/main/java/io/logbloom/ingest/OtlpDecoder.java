package io.logbloom.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Decodes an OTLP/HTTP logs body ({@code ExportLogsServiceRequest}) from binary protobuf
 * ({@code application/x-protobuf}) or from OTLP's JSON encoding ({@code application/json}: lowerCamelCase
 * field names, snake_case accepted too; {@code traceId}/{@code spanId} as hex; 64-bit integers as numbers
 * or strings; enums as numbers). Decompression is done before. Bad bodies raise {@link PushDecodeException}
 * with the reason. Thread-safe (stateless apart from a shared Jackson mapper).
 */
public final class OtlpDecoder {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Decodes {@code body} by its content type (JSON when it says json, protobuf otherwise). */
    public ExportLogsServiceRequest decode(byte[] body, String contentType) throws PushDecodeException {
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        return type.contains("json") ? decodeJson(body) : decodeProtobuf(body);
    }

    /** Binary protobuf. */
    public ExportLogsServiceRequest decodeProtobuf(byte[] body) throws PushDecodeException {
        try {
            return ExportLogsServiceRequest.parseFrom(body);
        } catch (InvalidProtocolBufferException e) {
            throw new PushDecodeException("cannot decode OTLP protobuf logs request: " + e.getMessage(), e);
        }
    }

    /** OTLP JSON. */
    public ExportLogsServiceRequest decodeJson(byte[] body) throws PushDecodeException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new PushDecodeException("cannot decode OTLP JSON logs request: " + e.getOriginalMessage(), e);
        } catch (java.io.IOException e) {
            throw new PushDecodeException("cannot decode OTLP JSON logs request: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new PushDecodeException("cannot decode OTLP JSON logs request: expected a JSON object");
        }
        try {
            ExportLogsServiceRequest.Builder request = ExportLogsServiceRequest.newBuilder();
            for (JsonNode rl : array(root, "resourceLogs", "resource_logs")) {
                request.addResourceLogs(resourceLogs(rl));
            }
            return request.build();
        } catch (IllegalArgumentException e) {
            throw new PushDecodeException("cannot decode OTLP JSON logs request: " + e.getMessage(), e);
        }
    }

    private static ResourceLogs resourceLogs(JsonNode n) {
        ResourceLogs.Builder b = ResourceLogs.newBuilder();
        JsonNode resource = field(n, "resource", "resource");
        if (resource.isObject()) {
            Resource.Builder r = Resource.newBuilder();
            for (JsonNode kv : array(resource, "attributes", "attributes")) {
                r.addAttributes(keyValue(kv));
            }
            r.setDroppedAttributesCount((int) number(resource, "droppedAttributesCount", "dropped_attributes_count"));
            b.setResource(r);
        }
        for (JsonNode sl : array(n, "scopeLogs", "scope_logs")) {
            b.addScopeLogs(scopeLogs(sl));
        }
        b.setSchemaUrl(text(n, "schemaUrl", "schema_url"));
        return b.build();
    }

    private static ScopeLogs scopeLogs(JsonNode n) {
        ScopeLogs.Builder b = ScopeLogs.newBuilder();
        JsonNode scope = field(n, "scope", "scope");
        if (scope.isObject()) {
            InstrumentationScope.Builder s = InstrumentationScope.newBuilder()
                    .setName(text(scope, "name", "name")).setVersion(text(scope, "version", "version"))
                    .setDroppedAttributesCount((int) number(scope, "droppedAttributesCount", "dropped_attributes_count"));
            for (JsonNode kv : array(scope, "attributes", "attributes")) {
                s.addAttributes(keyValue(kv));
            }
            b.setScope(s);
        }
        for (JsonNode r : array(n, "logRecords", "log_records")) {
            b.addLogRecords(logRecord(r));
        }
        return b.build();
    }

    private static LogRecord logRecord(JsonNode n) {
        LogRecord.Builder b = LogRecord.newBuilder()
                .setTimeUnixNano(number(n, "timeUnixNano", "time_unix_nano"))
                .setObservedTimeUnixNano(number(n, "observedTimeUnixNano", "observed_time_unix_nano"))
                .setSeverityNumberValue((int) number(n, "severityNumber", "severity_number"))
                .setSeverityText(text(n, "severityText", "severity_text"))
                .setDroppedAttributesCount((int) number(n, "droppedAttributesCount", "dropped_attributes_count"))
                .setFlags((int) number(n, "flags", "flags"))
                .setTraceId(hex(text(n, "traceId", "trace_id"), 16, "traceId"))
                .setSpanId(hex(text(n, "spanId", "span_id"), 8, "spanId"));
        JsonNode body = field(n, "body", "body");
        if (body.isObject()) {
            b.setBody(anyValue(body));
        }
        for (JsonNode kv : array(n, "attributes", "attributes")) {
            b.addAttributes(keyValue(kv));
        }
        return b.build();
    }

    private static KeyValue keyValue(JsonNode n) {
        JsonNode value = field(n, "value", "value");
        return KeyValue.newBuilder().setKey(text(n, "key", "key"))
                .setValue(value.isObject() ? anyValue(value) : AnyValue.getDefaultInstance()).build();
    }

    private static AnyValue anyValue(JsonNode n) {
        AnyValue.Builder b = AnyValue.newBuilder();
        JsonNode v;
        if (!(v = field(n, "stringValue", "string_value")).isMissingNode()) {
            b.setStringValue(v.asText());
        } else if (!(v = field(n, "intValue", "int_value")).isMissingNode()) {
            b.setIntValue(number(n, "intValue", "int_value"));
        } else if (!(v = field(n, "doubleValue", "double_value")).isMissingNode()) {
            b.setDoubleValue(v.isNumber() ? v.doubleValue() : Double.parseDouble(v.asText()));
        } else if (!(v = field(n, "boolValue", "bool_value")).isMissingNode()) {
            b.setBoolValue(v.asBoolean());
        } else if (!(v = field(n, "bytesValue", "bytes_value")).isMissingNode()) {
            b.setBytesValue(ByteString.copyFrom(Base64.getDecoder().decode(v.asText())));
        } else if (!(v = field(n, "arrayValue", "array_value")).isMissingNode()) {
            ArrayValue.Builder a = ArrayValue.newBuilder();
            for (JsonNode x : array(v, "values", "values")) {
                a.addValues(anyValue(x));
            }
            b.setArrayValue(a);
        } else if (!(v = field(n, "kvlistValue", "kvlist_value")).isMissingNode()) {
            KeyValueList.Builder l = KeyValueList.newBuilder();
            for (JsonNode x : array(v, "values", "values")) {
                l.addValues(keyValue(x));
            }
            b.setKvlistValue(l);
        }
        return b.build();
    }

    private static JsonNode field(JsonNode n, String camel, String snake) {
        JsonNode v = n.path(camel);
        return v.isMissingNode() || v.isNull() ? n.path(snake) : v;
    }

    private static Iterable<JsonNode> array(JsonNode n, String camel, String snake) {
        JsonNode v = field(n, camel, snake);
        if (v.isMissingNode() || v.isNull()) {
            return java.util.List.of();
        }
        if (!v.isArray()) {
            throw new IllegalArgumentException("field " + camel + " must be an array");
        }
        return v;
    }

    private static String text(JsonNode n, String camel, String snake) {
        JsonNode v = field(n, camel, snake);
        if (v.isMissingNode() || v.isNull()) {
            return "";
        }
        if (!v.isValueNode()) {
            throw new IllegalArgumentException("field " + camel + " must be a string");
        }
        return v.asText();
    }

    private static long number(JsonNode n, String camel, String snake) {
        JsonNode v = field(n, camel, snake);
        if (v.isMissingNode() || v.isNull()) {
            return 0;
        }
        if (v.isIntegralNumber()) {
            return v.longValue();
        }
        try {
            return Long.parseUnsignedLong(v.asText().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("field " + camel + " must be an integer, got '" + v.asText() + "'");
        }
    }

    private static ByteString hex(String text, int length, String name) {
        if (text.isEmpty()) {
            return ByteString.EMPTY;
        }
        if (text.length() != 2 * length) {
            throw new IllegalArgumentException(name + " must be " + 2 * length + " hex digits, got '" + text + "'");
        }
        return ByteString.copyFrom(HexFormat.of().parseHex(text));
    }
}
