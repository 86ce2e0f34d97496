package io.logbloom.loadtest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.logbloom.loadtest.proto.PushProto;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.xerial.snappy.Snappy;

/**
 * A minimal Loki-API server for the harness's own tests: decodes pushes (snappy-protobuf, JSON,
 * gzip-JSON), stores entries in memory, and answers {@code query_range} for the selector + one
 * {@code | key="value"} metadata filter or {@code |= "text"} filter the harness sends, and the
 * harness's count query {@code sum(count_over_time({…} |= "text" [Ns]))} at the range's end; other
 * metric queries get an empty matrix. Optionally refuses every n-th push with 429 and {@code Retry-After: 1}
 * (a retry of it is the next push, so it is answered 204).
 *
 * <p>Thread-safe: entries are guarded by the {@code entries} list's monitor.
 */
final class LokiTestDouble implements AutoCloseable {
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|=)\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern METADATA_FILTER = Pattern.compile("\\|\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*=\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern COUNT = Pattern.compile("sum\\(count_over_time\\((\\{[^}]*\\})(.*)\\[(\\d+)s\\]\\)\\)");
    private static final Pattern LINE_FILTER = Pattern.compile("\\|=\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    record Stored(Map<String, String> labels, LogEntry entry) {}

    private final HttpServer server;
    private final ObjectMapper json = new ObjectMapper();
    private final List<Stored> entries = new ArrayList<>();
    private final int refuseEveryNthPush;
    private final AtomicInteger pushes = new AtomicInteger();
    private final Map<String, AtomicInteger> tenants = new java.util.concurrent.ConcurrentHashMap<>();

    LokiTestDouble(int refuseEveryNthPush) throws IOException {
        this.refuseEveryNthPush = refuseEveryNthPush;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/loki/api/v1/push", this::push);
        server.createContext("/loki/api/v1/query_range", this::queryRange);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    int storedLines() {
        synchronized (entries) {
            return entries.size();
        }
    }

    /** A copy of every entry stored so far, in the order received. */
    List<Stored> stored() {
        synchronized (entries) {
            return List.copyOf(entries);
        }
    }

    /** Drops the first stored entry whose line contains {@code text}, as a server losing an acknowledged line would. */
    void forgetFirstLineContaining(String text) {
        synchronized (entries) {
            for (int i = 0; i < entries.size(); i++) {
                if (entries.get(i).entry().line().contains(text)) {
                    entries.remove(i);
                    return;
                }
            }
        }
        throw new IllegalStateException("no stored line contains " + text);
    }

    /** Pushes answered 429 so far. */
    int refusedPushes() {
        return refuseEveryNthPush == 0 ? 0 : pushes.get() / refuseEveryNthPush;
    }

    Map<String, AtomicInteger> tenants() {
        return tenants;
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }

    private void push(HttpExchange exchange) throws IOException {
        try (exchange) {
            tenants.computeIfAbsent(String.valueOf(exchange.getRequestHeaders().getFirst("X-Scope-OrgID")),
                    k -> new AtomicInteger()).incrementAndGet();
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (refuseEveryNthPush > 0 && pushes.incrementAndGet() % refuseEveryNthPush == 0) {
                exchange.getResponseHeaders().set("Retry-After", "1");
                reply(exchange, 429, "ingestion rate limit exceeded");
                return;
            }
            List<LogStream> streams = decode(body, exchange.getRequestHeaders().getFirst("Content-Type"),
                    exchange.getRequestHeaders().getFirst("Content-Encoding"));
            synchronized (entries) {
                for (LogStream stream : streams) {
                    for (LogEntry entry : stream.entries()) {
                        entries.add(new Stored(stream.labels(), entry));
                    }
                }
            }
            exchange.sendResponseHeaders(204, -1);
        } catch (RuntimeException e) {
            reply(exchange, 400, "cannot decode push: " + e.getMessage());
        }
    }

    static List<LogStream> decode(byte[] body, String contentType, String contentEncoding) throws IOException {
        if ("application/x-protobuf".equals(contentType)) {
            PushProto.PushRequest request = PushProto.PushRequest.parseFrom(Snappy.uncompress(body));
            List<LogStream> streams = new ArrayList<>();
            for (PushProto.StreamAdapter stream : request.getStreamsList()) {
                List<LogEntry> list = new ArrayList<>();
                for (PushProto.EntryAdapter entry : stream.getEntriesList()) {
                    Map<String, String> metadata = new TreeMap<>();
                    entry.getStructuredMetadataList().forEach(pair -> metadata.put(pair.getName(), pair.getValue()));
                    list.add(new LogEntry(entry.getTimestamp().getSeconds() * 1_000_000_000L + entry.getTimestamp().getNanos(),
                            entry.getLine(), metadata));
                }
                streams.add(new LogStream(parseLabels(stream.getLabels()), list));
            }
            return streams;
        }
        InputStream in = new ByteArrayInputStream(body);
        if ("gzip".equals(contentEncoding)) {
            in = new GZIPInputStream(in);
        }
        JsonNode root = new ObjectMapper().readTree(in);
        List<LogStream> streams = new ArrayList<>();
        for (JsonNode stream : root.path("streams")) {
            Map<String, String> labels = new TreeMap<>();
            stream.path("stream").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            List<LogEntry> list = new ArrayList<>();
            for (JsonNode value : stream.path("values")) {
                Map<String, String> metadata = new TreeMap<>();
                value.path(2).fields().forEachRemaining(e -> metadata.put(e.getKey(), e.getValue().asText()));
                list.add(new LogEntry(Long.parseLong(value.path(0).asText()), value.path(1).asText(), metadata));
            }
            streams.add(new LogStream(labels, list));
        }
        return streams;
    }

    static Map<String, String> parseLabels(String selector) {
        Map<String, String> labels = new TreeMap<>();
        Matcher matcher = LABEL.matcher(selector);
        while (matcher.find()) {
            labels.put(matcher.group(1), unescape(matcher.group(3)));
        }
        return labels;
    }

    private void queryRange(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> params = new HashMap<>();
            for (String pair : exchange.getRequestURI().getRawQuery().split("&")) {
                int eq = pair.indexOf('=');
                params.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
            String query = params.get("query");
            String step = params.get("step");
            if (step != null && !step.matches("\\d+(\\.\\d+)?")) {
                // Loki parses step as float seconds or as an integer-unit duration; "1.5s" is refused.
                reply(exchange, 400, "invalid step '" + step + "'");
                return;
            }
            ObjectNode root = json.createObjectNode().put("status", "success");
            ObjectNode data = root.putObject("data");
            Matcher count = COUNT.matcher(query);
            if (count.matches()) {
                data.put("resultType", "matrix");
                long at = Long.parseLong(params.get("end"));
                long lines = selected(count.group(1), count.group(2), at - Long.parseLong(count.group(3)) * 1_000_000_000L + 1,
                        at + 1, Integer.MAX_VALUE).values().stream().mapToLong(ArrayNode::size).sum();
                if (lines > 0) {
                    ObjectNode series = data.putArray("result").addObject();
                    series.putObject("metric");
                    series.set("values", json.createArrayNode().add(
                            json.createArrayNode().add(at / 1_000_000_000L).add(Long.toString(lines))));
                } else {
                    data.putArray("result");
                }
                reply(exchange, 200, json.writeValueAsString(root));
                return;
            }
            if (!query.startsWith("{")) {
                data.put("resultType", "matrix");
                data.putArray("result");
                reply(exchange, 200, json.writeValueAsString(root));
                return;
            }
            String selector = query.substring(0, query.indexOf('}') + 1);
            Map<Map<String, String>, ArrayNode> result = selected(selector, query.substring(selector.length()),
                    Long.parseLong(params.get("start")), Long.parseLong(params.get("end")),
                    Integer.parseInt(params.get("limit")));
            data.put("resultType", "streams");
            ArrayNode array = data.putArray("result");
            result.forEach((labels, values) -> {
                ObjectNode stream = array.addObject();
                ObjectNode labelNode = stream.putObject("stream");
                labels.forEach(labelNode::put);
                stream.set("values", values);
            });
            reply(exchange, 200, json.writeValueAsString(root));
        }
    }

    /** The newest {@code limit} entries in [start, end) that the selector and the pipeline's one filter keep, per stream. */
    private Map<Map<String, String>, ArrayNode> selected(String selector, String pipeline, long start, long end, int limit) {
        Matcher label = LABEL.matcher(selector);
        List<String[]> matchers = new ArrayList<>();
        while (label.find()) {
            matchers.add(new String[] {label.group(1), label.group(2), unescape(label.group(3))});
        }
        Matcher metadataFilter = METADATA_FILTER.matcher(pipeline);
        Matcher lineFilter = LINE_FILTER.matcher(pipeline);
        String metadataKey = metadataFilter.find() ? metadataFilter.group(1) : null;
        String metadataValue = metadataKey == null ? null : unescape(metadataFilter.group(2));
        String contains = lineFilter.find() ? unescape(lineFilter.group(1)) : null;
        Map<Map<String, String>, ArrayNode> result = new LinkedHashMap<>();
        int found = 0;
        synchronized (entries) {
            for (int i = entries.size() - 1; i >= 0 && found < limit; i--) {
                Stored stored = entries.get(i);
                long ts = stored.entry().timestampNanos();
                if (ts < start || ts >= end || !matches(stored.labels(), matchers)
                        || (metadataKey != null && !metadataValue.equals(stored.entry().structuredMetadata().get(metadataKey)))
                        || (contains != null && !stored.entry().line().contains(contains))) {
                    continue;
                }
                ArrayNode values = result.computeIfAbsent(stored.labels(), k -> json.createArrayNode());
                values.addArray().add(Long.toString(ts)).add(stored.entry().line());
                found++;
            }
        }
        return result;
    }

    private static boolean matches(Map<String, String> labels, List<String[]> matchers) {
        for (String[] matcher : matchers) {
            String value = labels.getOrDefault(matcher[0], "");
            boolean ok = matcher[1].equals("=") ? value.equals(matcher[2]) : value.matches(matcher[2]);
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static String unescape(String value) {
        return value.replace("\\\"", "\"").replace("\\\\", "\\");
    }

    private static void reply(HttpExchange exchange, int status, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", status == 200 ? "application/json" : "text/plain");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
