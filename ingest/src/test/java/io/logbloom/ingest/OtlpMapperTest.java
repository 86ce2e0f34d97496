package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.resource.v1.Resource;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

final class OtlpMapperTest {
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SPAN = "00f067aa0ba902b7";

    private static KeyValue kv(String key, AnyValue v) {
        return KeyValue.newBuilder().setKey(key).setValue(v).build();
    }

    private static AnyValue str(String s) {
        return AnyValue.newBuilder().setStringValue(s).build();
    }

    static ExportLogsServiceRequest sample() {
        Resource resource = Resource.newBuilder()
                .addAttributes(kv("service.name", str("checkout")))
                .addAttributes(kv("k8s.namespace.name", str("shop")))
                .addAttributes(kv("host.name", str("node-1")))
                .addAttributes(kv("process.pid", AnyValue.newBuilder().setIntValue(42).build()))
                .build();
        LogRecord record = LogRecord.newBuilder()
                .setTimeUnixNano(1_700_000_000_123_000_000L).setObservedTimeUnixNano(1_700_000_000_200_000_000L)
                .setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_WARN).setSeverityText("WARN")
                .setBody(str("payment slow"))
                .addAttributes(kv("http.method", str("POST")))
                .addAttributes(kv("retry", AnyValue.newBuilder().setBoolValue(true).build()))
                .addAttributes(kv("tags", AnyValue.newBuilder().setArrayValue(ArrayValue.newBuilder()
                        .addValues(str("a")).addValues(AnyValue.newBuilder().setIntValue(1))).build()))
                .addAttributes(kv("user", AnyValue.newBuilder().setKvlistValue(KeyValueList.newBuilder()
                        .addValues(kv("id", str("u1")))).build()))
                .setTraceId(ByteString.copyFrom(HexFormat.of().parseHex(TRACE)))
                .setSpanId(ByteString.copyFrom(HexFormat.of().parseHex(SPAN)))
                .setFlags(1)
                .build();
        LogRecord noTime = LogRecord.newBuilder().setBody(AnyValue.newBuilder().setDoubleValue(1.5)).build();
        return ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder().setResource(resource)
                .addScopeLogs(ScopeLogs.newBuilder().setScope(InstrumentationScope.newBuilder().setName("io.shop")
                        .setVersion("1.0").addAttributes(kv("scope.attr", str("s"))))
                        .addLogRecords(record).addLogRecords(noTime)))
                .build();
    }

    static final String SAMPLE_JSON = """
            {"resourceLogs":[{"resource":{"attributes":[
              {"key":"service.name","value":{"stringValue":"checkout"}},
              {"key":"k8s.namespace.name","value":{"stringValue":"shop"}},
              {"key":"host.name","value":{"stringValue":"node-1"}},
              {"key":"process.pid","value":{"intValue":"42"}}]},
             "scopeLogs":[{"scope":{"name":"io.shop","version":"1.0","attributes":[{"key":"scope.attr","value":{"stringValue":"s"}}]},
              "logRecords":[
               {"timeUnixNano":"1700000000123000000","observedTimeUnixNano":1700000000200000000,"severityNumber":13,
                "severityText":"WARN","body":{"stringValue":"payment slow"},
                "attributes":[{"key":"http.method","value":{"stringValue":"POST"}},
                  {"key":"retry","value":{"boolValue":true}},
                  {"key":"tags","value":{"arrayValue":{"values":[{"stringValue":"a"},{"intValue":1}]}}},
                  {"key":"user","value":{"kvlistValue":{"values":[{"key":"id","value":{"stringValue":"u1"}}]}}}],
                "traceId":"4bf92f3577b34da6a3ce929d0e0e4736","spanId":"00f067aa0ba902b7","flags":1},
               {"body":{"doubleValue":1.5}}]}]}]}
            """;

    @Test
    void streams_lokiMapping() {
        List<PushStream> streams = new OtlpMapper(OtlpConfig.defaults(), true).streams(sample(), 99);
        assertThat(streams).hasSize(1);
        assertThat(streams.get(0).labels()).isEqualTo("{k8s_namespace_name=\"shop\", service_name=\"checkout\"}");
        LogEntry e = streams.get(0).entries().get(0);
        assertThat(e.timestampNanos()).isEqualTo(1_700_000_000_123_000_000L);
        assertThat(e.line()).isEqualTo("payment slow");
        assertThat(e.metadata()).containsExactly(
                new Label("http_method", "POST"), new Label("retry", "true"), new Label("tags", "[\"a\",1]"),
                new Label("user_id", "u1"), new Label("observed_timestamp", "1700000000200000000"),
                new Label("severity_number", "13"), new Label("severity_text", "WARN"), new Label("flags", "1"),
                new Label("trace_id", TRACE), new Label("span_id", SPAN),
                new Label("host_name", "node-1"), new Label("process_pid", "42"),
                new Label("scope_attr", "s"), new Label("scope_name", "io.shop"), new Label("scope_version", "1.0"));
        LogEntry noTime = streams.get(0).entries().get(1);
        assertThat(noTime.timestampNanos()).isEqualTo(99);
        assertThat(noTime.line()).isEqualTo("1.5");
    }

    @Test
    void decodeJson_sameAsProtobuf() throws Exception {
        OtlpDecoder decoder = new OtlpDecoder();
        ExportLogsServiceRequest json = decoder.decode(SAMPLE_JSON.getBytes(StandardCharsets.UTF_8), "application/json");
        assertThat(json).isEqualTo(sample());
        assertThat(decoder.decode(sample().toByteArray(), "application/x-protobuf")).isEqualTo(sample());
    }

    @Test
    void decode_garbage_clearErrors() {
        OtlpDecoder decoder = new OtlpDecoder();
        assertThatThrownBy(() -> decoder.decode(new byte[] {1, 2, 3, 4}, "application/x-protobuf"))
                .isInstanceOf(PushDecodeException.class).hasMessageContaining("OTLP protobuf");
        assertThatThrownBy(() -> decoder.decode("{\"resourceLogs\":".getBytes(StandardCharsets.UTF_8), "application/json"))
                .isInstanceOf(PushDecodeException.class).hasMessageContaining("OTLP JSON");
        assertThatThrownBy(() -> decoder.decode("{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"traceId\":\"xyz\"}]}]}]}"
                .getBytes(StandardCharsets.UTF_8), "application/json"))
                .isInstanceOf(PushDecodeException.class).hasMessageContaining("traceId must be 32 hex digits");
        assertThatThrownBy(() -> decoder.decode("{\"resourceLogs\":{}}".getBytes(StandardCharsets.UTF_8), "application/json"))
                .isInstanceOf(PushDecodeException.class).hasMessageContaining("resourceLogs must be an array");
    }

    @Test
    void config_rules_dropIndexAndIgnoreDefaults() {
        OtlpConfig config = OtlpConfig.of(false,
                List.of(new OtlpConfig.Rule(OtlpConfig.Action.INDEX_LABEL, List.of("host.name"), null),
                        new OtlpConfig.Rule(OtlpConfig.Action.DROP, List.of(), Pattern.compile("process\\..*"))),
                List.of(new OtlpConfig.Rule(OtlpConfig.Action.DROP, List.of("scope.attr"), null)),
                List.of(new OtlpConfig.Rule(OtlpConfig.Action.DROP, List.of(), Pattern.compile("tags|user"))), true);
        PushStream s = new OtlpMapper(config, true).streams(sample(), 0).get(0);
        assertThat(s.labels()).isEqualTo(
                "{host_name=\"node-1\", k8s_namespace_name=\"shop\", service_name=\"checkout\", severity_text=\"WARN\"}");
        assertThat(s.entries().get(0).metadata()).extracting(Label::name).doesNotContain("process_pid", "scope_attr",
                "tags", "user_id", "host_name");

        OtlpConfig onlyHost = OtlpConfig.of(true,
                List.of(new OtlpConfig.Rule(OtlpConfig.Action.INDEX_LABEL, List.of("host.name"), null)), List.of(),
                List.of(), false);
        assertThat(new OtlpMapper(onlyHost, true).streams(sample(), 0).get(0).labels())
                .isEqualTo("{host_name=\"node-1\"}");
        assertThatThrownBy(() -> OtlpConfig.of(false, List.of(),
                List.of(new OtlpConfig.Rule(OtlpConfig.Action.INDEX_LABEL, List.of("a"), null)), List.of(), false))
                .hasMessageContaining("only supported for resource_attributes");
    }

    @Test
    void streams_noIndexLabel_unknownServiceWhenDiscoveryOn() {
        ExportLogsServiceRequest bare = ExportLogsServiceRequest.newBuilder().addResourceLogs(ResourceLogs.newBuilder()
                .addScopeLogs(ScopeLogs.newBuilder().addLogRecords(LogRecord.newBuilder().setBody(str("x"))))).build();
        assertThat(new OtlpMapper(OtlpConfig.defaults(), true).streams(bare, 5).get(0).labels())
                .isEqualTo("{service_name=\"unknown_service\"}");
        assertThat(new OtlpMapper(OtlpConfig.defaults(), false).streams(bare, 5).get(0).labels()).isEqualTo("{}");
    }

    @Test
    void labelName_normalized() {
        assertThat(OtlpMapper.labelName("k8s.pod.name")).isEqualTo("k8s_pod_name");
        assertThat(OtlpMapper.labelName("1st-key")).isEqualTo("key_1st_key");
        assertThat(OtlpMapper.labelName("ünï")).isEqualTo("_n_");
    }
}
