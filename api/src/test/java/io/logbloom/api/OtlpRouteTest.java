package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.SimpleLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code POST /otlp/v1/logs}: a real OpenTelemetry SDK client, OTLP JSON and gzip, errors, and bloom skipping on trace_id. */
final class OtlpRouteTest {
    private static final long SEC = 1_000_000_000L;

    @TempDir
    Path dir;

    /** An OTLP JSON body of {@code n} records of {@code service} from {@code t0}, INFO and ERROR alternating. */
    static String otlpJson(String service, long t0, int n) {
        return otlpJson(service, t0, n, 0xabc000L);
    }

    /** As {@link #otlpJson(String, long, int)} with trace ids {@code traceBase + i} (32 hex digits). */
    static String otlpJson(String service, long t0, int n, long traceBase) {
        StringBuilder sb = new StringBuilder("{\"resourceLogs\":[{\"resource\":{\"attributes\":[")
                .append("{\"key\":\"service.name\",\"value\":{\"stringValue\":\"").append(service).append("\"}},")
                .append("{\"key\":\"host.name\",\"value\":{\"stringValue\":\"node-1\"}}]},")
                .append("\"scopeLogs\":[{\"scope\":{\"name\":\"io.shop.payments\"},\"logRecords\":[");
        for (int i = 0; i < n; i++) {
            boolean error = i % 2 == 1;
            sb.append(i > 0 ? "," : "").append("{\"timeUnixNano\":\"").append(t0 + i * 3L * SEC)
                    .append("\",\"severityNumber\":").append(error ? 17 : 9).append(",\"severityText\":\"")
                    .append(error ? "ERROR" : "INFO").append("\",\"body\":{\"stringValue\":\"charge ")
                    .append(error ? "declined" : "accepted").append(" for order ").append(1000 + i)
                    .append("\"},\"traceId\":\"").append(String.format(Locale.ROOT, "%032x", traceBase + i))
                    .append("\",\"spanId\":\"").append(String.format(Locale.ROOT, "%016x", 0x5000L + i)).append("\"}");
        }
        return sb.append("]}]}]}").toString();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static JsonNode get(TestServer s, String path, String... headers) throws Exception {
        java.net.http.HttpRequest.Builder b = s.request(path).GET();
        if (headers.length > 0) {
            b.headers(headers);
        }
        HttpResponse<String> r = s.send(b);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return QueryFixtureTest.JSON.readTree(r.body());
    }

    @Test
    void otelSdkExporter_recordsComeBackWithLabelsAndMetadata() throws Exception {
        try (TestServer s = TestServer.start(dir)) {
            OtlpHttpLogRecordExporter exporter = OtlpHttpLogRecordExporter.builder()
                    .setEndpoint("http://127.0.0.1:" + s.server.port() + "/otlp/v1/logs").build();
            SdkLoggerProvider provider = SdkLoggerProvider.builder()
                    .setResource(Resource.getDefault().merge(Resource.create(Attributes.builder()
                            .put("service.name", "checkout").put("k8s.namespace.name", "shop")
                            .put("host.name", "node-7").build())))
                    .addLogRecordProcessor(SimpleLogRecordProcessor.create(exporter)).build();
            Logger logger = provider.get("io.logbloom.test");
            String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
            String spanId = "00f067aa0ba902b7";
            Context withSpan = Context.root().with(Span.wrap(SpanContext.create(traceId, spanId,
                    TraceFlags.getSampled(), TraceState.getDefault())));
            Instant now = Instant.now();
            logger.logRecordBuilder().setTimestamp(now.minusSeconds(2)).setSeverity(Severity.WARN)
                    .setSeverityText("WARN").setBody("payment slow order=42")
                    .setAttribute(AttributeKey.stringKey("http.method"), "POST").setContext(withSpan).emit();
            logger.logRecordBuilder().setTimestamp(now.minusSeconds(1)).setSeverity(Severity.ERROR)
                    .setBody("payment failed order=43").emit();
            assertThat(provider.forceFlush().join(10, TimeUnit.SECONDS).isSuccess()).isTrue();
            assertThat(provider.shutdown().join(10, TimeUnit.SECONDS).isSuccess()).isTrue();

            long start = (now.getEpochSecond() - 60) * SEC;
            long end = (now.getEpochSecond() + 60) * SEC;
            JsonNode body = get(s, "/loki/api/v1/query_range?query=" + enc("{service_name=\"checkout\"}")
                    + "&start=" + start + "&end=" + end + "&direction=forward",
                    "X-Loki-Response-Encoding-Flags", "categorize-labels");
            JsonNode result = body.get("data").get("result");
            assertThat(result).hasSize(1);
            JsonNode stream = result.get(0).get("stream");
            assertThat(stream.get("service_name").asText()).isEqualTo("checkout");
            assertThat(stream.get("k8s_namespace_name").asText()).isEqualTo("shop");
            assertThat(stream.has("host_name")).isFalse();
            JsonNode values = result.get(0).get("values");
            assertThat(values).hasSize(2);
            assertThat(values.get(0).get(1).asText()).isEqualTo("payment slow order=42");
            JsonNode meta = values.get(0).get(2).get("structuredMetadata");
            assertThat(meta.get("trace_id").asText()).isEqualTo(traceId);
            assertThat(meta.get("span_id").asText()).isEqualTo(spanId);
            assertThat(meta.get("severity_text").asText()).isEqualTo("WARN");
            assertThat(meta.get("severity_number").asText()).isEqualTo("13");
            assertThat(meta.get("detected_level").asText()).isEqualTo("warn");
            assertThat(meta.get("http_method").asText()).isEqualTo("POST");
            assertThat(meta.get("host_name").asText()).isEqualTo("node-7");
            assertThat(meta.get("scope_name").asText()).isEqualTo("io.logbloom.test");
            assertThat(meta.get("telemetry_sdk_language").asText()).isEqualTo("java");
            JsonNode second = values.get(1).get(2).get("structuredMetadata");
            assertThat(second.get("detected_level").asText()).isEqualTo("error");
            assertThat(second.has("trace_id")).isFalse();
        }
    }

    @Test
    void jsonAndGzip_accepted_protobufResponse() throws Exception {
        try (TestServer s = TestServer.start(dir)) {
            long t0 = (System.currentTimeMillis() / 1000 - 60) * SEC;
            HttpResponse<String> json = s.post("/otlp/v1/logs", otlpJson("payments", t0, 4)
                    .getBytes(StandardCharsets.UTF_8), "Content-Type", "application/json");
            assertThat(json.statusCode()).as(json.body()).isEqualTo(200);
            assertThat(json.body()).isEqualTo("{}");

            ByteArrayOutputStream zipped = new ByteArrayOutputStream();
            try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
                gz.write(new io.logbloom.ingest.OtlpDecoder().decodeJson(otlpJson("refunds", t0, 3)
                        .getBytes(StandardCharsets.UTF_8)).toByteArray());
            }
            HttpResponse<byte[]> proto = s.http.send(s.request("/otlp/v1/logs")
                    .header("Content-Type", "application/x-protobuf").header("Content-Encoding", "gzip")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(zipped.toByteArray())).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(proto.statusCode()).isEqualTo(200);
            assertThat(ExportLogsServiceResponse.parseFrom(proto.body())).isEqualTo(
                    ExportLogsServiceResponse.getDefaultInstance());

            JsonNode names = get(s, "/loki/api/v1/label/service_name/values?start=" + (t0 - SEC) + "&end="
                    + (t0 + 60 * SEC));
            assertThat(names.get("data")).extracting(JsonNode::asText).containsExactly("payments", "refunds");
        }
    }

    @Test
    void badBodies_clear4xx() throws Exception {
        try (TestServer s = TestServer.start(dir)) {
            HttpResponse<String> garbage = s.post("/otlp/v1/logs", new byte[] {9, 9, 9, 9},
                    "Content-Type", "application/x-protobuf");
            assertThat(garbage.statusCode()).isEqualTo(400);
            assertThat(garbage.body()).contains("cannot decode OTLP protobuf");
            HttpResponse<String> badJson = s.post("/otlp/v1/logs", "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"spanId\":\"12\"}]}]}]}"
                    .getBytes(StandardCharsets.UTF_8), "Content-Type", "application/json");
            assertThat(badJson.statusCode()).isEqualTo(400);
            assertThat(badJson.body()).contains("spanId must be 16 hex digits");
            long old = (System.currentTimeMillis() / 1000 - 30 * 24 * 3600) * SEC;
            HttpResponse<String> tooOld = s.post("/otlp/v1/logs", otlpJson("payments", old, 1)
                    .getBytes(StandardCharsets.UTF_8), "Content-Type", "application/json");
            assertThat(tooOld.statusCode()).isEqualTo(400);
            assertThat(tooOld.body()).contains("entry for stream '{service_name=\"payments\"}' has timestamp too old");
        }
    }

    @Test
    void traceIdNeedle_otlpData_bloomsSkipChunks_sameResult() throws Exception {
        try (TestServer s = TestServer.start(dir, "ingester:\n  chunk_block_size: 1KB\n  chunk_target_size: 2KB\n")) {
            long t0 = (System.currentTimeMillis() / 1000 - 1800) * SEC;
            io.logbloom.ingest.OtlpDecoder decoder = new io.logbloom.ingest.OtlpDecoder();
            for (int batch = 0; batch < 4; batch++) {
                ExportLogsServiceRequest request = decoder.decodeJson(otlpJson("checkout", t0 + batch * 300L * SEC,
                        100, 0xabc000L + batch * 1000L).getBytes(StandardCharsets.UTF_8));
                HttpResponse<String> r = s.post("/otlp/v1/logs", request.toByteArray(),
                        "Content-Type", "application/x-protobuf");
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            }
            assertThat(s.flush().statusCode()).isEqualTo(204);
            String needle = String.format(Locale.ROOT, "%032x", 0xabc000L + 2 * 1000L + 77);
            String path = "/loki/api/v1/query_range?query=" + enc("{service_name=\"checkout\"} | trace_id=\"" + needle
                    + "\"") + "&start=" + (t0 - SEC) + "&end=" + (t0 + 3600 * SEC) + "&limit=100";
            JsonNode on = get(s, path);
            JsonNode off = get(s, path, "X-Logbloom-Blooms", "off");
            assertThat(on.get("data").get("result")).isEqualTo(off.get("data").get("result"));
            JsonNode result = on.get("data").get("result");
            List<String> lines = new ArrayList<>();
            result.forEach(st -> st.get("values").forEach(v -> lines.add(v.get(1).asText())));
            assertThat(lines).containsExactly("charge declined for order 1077");
            JsonNode index = on.get("data").get("stats").get("index");
            assertThat(index.get("totalChunks").asLong()).isGreaterThan(4);
            assertThat(index.get("chunksSkipped").asLong()).isPositive();
            assertThat(off.get("data").get("stats").get("index").get("chunksSkipped").asLong()).isZero();
        }
    }
}
