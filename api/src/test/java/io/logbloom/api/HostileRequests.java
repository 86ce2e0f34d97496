package io.logbloom.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.logbloom.ingest.proto.PushProto;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.xerial.snappy.Snappy;

/**
 * Generates hostile HTTP requests for the fuzz test, request {@code i} of seed {@code s} always the
 * same (its own {@link Random} is seeded from both), so one failing request reproduces alone.
 *
 * <p>Kinds: snappy-protobuf pushes with byte mutations and truncations before or after compression;
 * framing garbage (gzip and snappy of random or mutated bytes, wrong {@code Content-Encoding});
 * JSON pushes built as a tree and mutated structurally (wrong types, missing and extra members,
 * deep nesting) and textually; LogQL queries mutated from a corpus of valid ones, sent to every query
 * route by GET or form POST; hostile values for every query parameter ({@code start end since step
 * limit direction interval time}); hostile label names in {@code label/{name}/values}; and hostile
 * header values ({@code X-Scope-OrgID}, content type and encoding, Loki's encoding flags). Immutable
 * after construction and thread-safe ({@link #request} allocates its own state).
 */
final class HostileRequests {
    /** One request as bytes on the wire, and a printable summary for failure reports. */
    record HostileRequest(String kind, String method, String target, List<String[]> headers, byte[] body) {
        /** A one-line summary: kind, method, target, headers and the body's first bytes, escaped. */
        String describe() {
            StringBuilder sb = new StringBuilder(kind).append(": ").append(method).append(' ').append(escape(target));
            for (String[] h : headers) {
                sb.append(" [").append(h[0]).append(": ").append(escape(h[1])).append(']');
            }
            sb.append(" body(").append(body.length).append(")=")
                    .append(escape(new String(body, 0, Math.min(body.length, 300), StandardCharsets.ISO_8859_1)));
            return sb.toString();
        }

        private static String escape(String s) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < Math.min(s.length(), 400); i++) {
                char c = s.charAt(i);
                if (c < 0x20 || c >= 0x7F) {
                    sb.append(String.format("\\x%02x", (int) c & 0xFF));
                } else {
                    sb.append(c);
                }
            }
            return s.length() > 400 ? sb.append("...").toString() : sb.toString();
        }
    }

    /** Tenants the fuzzer pushes to and queries (the test seeds them with data). */
    static final List<String> TENANTS = List.of("fuzz-a", "fuzz-b");

    private static final String PUSH = "/loki/api/v1/push";
    private static final List<String> QUERY_ROUTES = List.of("/loki/api/v1/query", "/loki/api/v1/query_range",
            "/loki/api/v1/labels", "/loki/api/v1/label/app/values", "/loki/api/v1/series", "/loki/api/v1/index/stats",
            "/loki/api/v1/index/volume", "/loki/api/v1/index/volume_range", "/loki/api/v1/format_query",
            "/loki/api/v1/detected_labels", "/loki/api/v1/detected_fields", "/loki/api/v1/label");
    private static final List<String> PARAMS = List.of("start", "end", "since", "step", "limit", "direction",
            "interval", "time", "query", "match[]", "targetLabels", "aggregateBy", "line_limit", "field_limit");
    private static final List<String> TOKENS = List.of("{", "}", "(", ")", "[", "]", "[5m]", "[0s]", "[100000000y]",
            "|=", "!=", "|~", "!~", "|>", "!>", "|", "=", "=~", "!", ",", "\"", "`", "\\", "\\\"", "json", "logfmt",
            "| json", "| logfmt", "| pattern \"<_> <a>\"", "| regexp \"(?P<a>.*)\"", "| unpack", "| line_format \"{{.a}}\"",
            "| label_format a=b", "| a > 1", "| a = \"x\"", "| __error__=\"\"", "| drop a", "| keep a", " by (app)",
            " without (a)", "sum", "rate(", "count_over_time(", "quantile_over_time(0.99,", "topk(", "bottomk(-1,",
            "sum by (app) (", "unwrap a", "| unwrap bytes(a)", "offset 1h", "offset -1h", "or", "and", "unless",
            "vector(", "label_replace(", "1e309", "-1", "0", "99999999999999999999", "NaN", "Inf", "0x1F", "1_000",
            "\u00e9", "\u202e", "\u0000", "\ud83d\ude00", "\ud800", "\uffff", "#", "\n", "\t", "{app=\"web\"}",
            "{app=~\".*\"}", "{app=~\"(a|b|c)*\"}", ".*", ".+", "(?i)", "[[:alpha:]]", "\\p{L}", "{__name__=\"x\"}",
            "ip(\"1.2.3.4/99\")", "\"<_>\"", "\"\\u0000\"", "\"\\x\"", "`\\`", "/*", "*/", "5m", "1h", "1y",
            "[1ms]", "[$__interval]", "sort(", "sort_desc(", "absent_over_time(", "first_over_time(", "bytes_rate(");
    private static final List<String> HOSTILE_VALUES = List.of("", " ", "-", "+", "0", "-0", "1", "-1", "00",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
            "99999999999999999999999999", "1e308", "-1e308", "1e309", "NaN", "nan", "Inf", "+Inf", "-Inf", "Infinity",
            "0.0", "1.5", "1e-9", "1e-30", "-0.001", "0x10", "1_0", "1,5", "1.5.5", "1e", ".", "..", "1.", ".1",
            "1ns", "1us", "1ms", "1s", "1m", "1h", "1d", "1w", "1y", "1y1w1d1h1m1s1ms", "1s1m", "5m5m",
            "9223372036854775807y", "106751d", "106752d", "292y", "293y", "99999999999999999999y", "-5m", "1.5h",
            "2024-01-01T00:00:00Z", "2024-01-01T00:00:00.123456789+01:00", "2024-13-45T99:99:99Z",
            "+999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
            "1970-01-01", "now", "now-1h", "forward", "FORWARD", "Backward", "sideways", "\u0000", "%00", "\r\n",
            "\u00e9", "\ud83d\ude00", "\ud800", "{}", "[]", "null", "true", "a".repeat(5000), "9".repeat(400),
            "1".repeat(19), "1".repeat(20), "-" + "1".repeat(19), "1e18", "1e19", "-1e19", "12345678901.5",
            "1700000000", "1700000000000000000", "1700000000.123", "17000000000", "170000000000000000000");
    private static final List<String> LABEL_NAMES = List.of("app", "", "..", ".", "%2e%2e", "../../etc/passwd",
            "a%2Fb", "%00", "__name__", "__error__", "a b", "\u00e9", "9abc", "_", "a".repeat(2000), "%ff%fe",
            "%c0%ae%c0%ae", "a%0d%0aX-Injected: 1", "%", "%zz", "app%3Dx", "label_values");
    private static final List<String> HEADER_NAMES = List.of(TenantResolver.HEADER, "Content-Type",
            "Content-Encoding", QueryRoutes.ENCODING_FLAGS_HEADER, QueryRoutes.BLOOMS_HEADER, "Accept",
            "Accept-Encoding", "X-Query-Tags", "Transfer-Encoding-Extra");
    private static final List<String> HEADER_VALUES = List.of("", " ", "..", "../", "../../etc", "/", "a/b", "a\\b",
            "fuzz-a/../fuzz-b", "fuzz-a\u0000", "\u0000", "\u0001\u0002", "\t", "\u007f", "\u00e9", "\u00ff\u00fe",
            "a".repeat(151), "a".repeat(150), "a".repeat(9000), "fake", "fuzz-a", "*", "()", "!-_.*'()",
            "application/json", "application/x-protobuf", "application/json; charset=utf-8", "text/plain",
            "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "gzip", "x-gzip", "deflate",
            "snappy", "br", "gzip, gzip", "identity", "categorize-labels", "off", "on", "categorize-labels,x",
            "\u00c3\u00a9");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final long seed;
    private final long baseNanos;
    private final List<String> corpus;

    /** A generator for {@code seed}; valid timestamps are around {@code baseNanos}; queries start from {@code corpus}. */
    HostileRequests(long seed, long baseNanos, List<String> corpus) {
        this.seed = seed;
        this.baseNanos = baseNanos;
        this.corpus = List.copyOf(corpus);
    }

    /** The valid LogQL queries of the logql module's test corpora (one per line; comments and blanks skipped). */
    static List<String> loadCorpus() {
        List<String> queries = new ArrayList<>();
        Path dir = Path.of("..", "logql", "src", "test", "resources", "io", "logbloom", "logql");
        for (String file : List.of("valid-queries.txt", "loki-doc-examples.txt")) {
            try {
                for (String line : Files.readAllLines(dir.resolve(file))) {
                    if (!line.isBlank() && !line.startsWith("#")) {
                        queries.add(line);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the LogQL corpus " + dir.resolve(file), e);
            }
        }
        return queries;
    }

    /** Request number {@code index}. */
    HostileRequest request(long index) {
        Random random = new Random(seed * 0x9E3779B97F4A7C15L + index * 0xC2B2AE3D27D4EB4FL);
        int kind = random.nextInt(100);
        try {
            if (kind < 22) {
                return protobufPush(random);
            } else if (kind < 32) {
                return framingGarbage(random);
            } else if (kind < 52) {
                return jsonPush(random);
            } else if (kind < 72) {
                return mutatedQuery(random);
            } else if (kind < 87) {
                return hostileParams(random);
            } else if (kind < 92) {
                return hostileLabelName(random);
            }
            return hostileHeaders(random);
        } catch (IOException e) {
            throw new UncheckedIOException("BUG: generating request " + index + " failed", e);
        }
    }

    /**
     * Live-tail request number {@code index} ({@code GET /loki/api/v1/tail}, a WebSocket upgrade): a
     * mutated or valid LogQL query, hostile values of {@code start}, {@code limit} and {@code delay_for},
     * and sometimes hostile headers (tenant id, encoding flags).
     */
    HostileRequest tailRequest(long index) {
        Random random = new Random(seed * 0xD6E8FEB86659FD93L + index * 0x9E3779B97F4A7C15L);
        String query = switch (random.nextInt(4)) {
            case 0 -> pick(random, corpus);
            case 1 -> "{app=~\"web|db\"}" + pick(random, List.of("", " |= \"seed\"", " | logfmt", " | json"));
            default -> mutateQuery(random, pick(random, corpus));
        };
        Map<String, String> params = new java.util.LinkedHashMap<>();
        params.put("query", query);
        params.put("start", Long.toString(baseNanos - 60_000_000_000L));
        int n = random.nextInt(3);
        for (int i = 0; i < n; i++) {
            String value = random.nextInt(5) == 0 ? new String(randomBytes(random, random.nextInt(30)),
                    StandardCharsets.ISO_8859_1) : pick(random, HOSTILE_VALUES);
            String name = pick(random, List.of("query", "start", "limit", "delay_for", "end", "direction"));
            if (random.nextInt(4) == 0) {
                params.remove(name);
            } else {
                params.put(name, value);
            }
        }
        StringBuilder target = new StringBuilder("/loki/api/v1/tail");
        char separator = '?';
        for (Map.Entry<String, String> p : params.entrySet()) {
            target.append(separator).append(URLEncoder.encode(p.getKey(), StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8));
            separator = '&';
        }
        List<String[]> headers = random.nextInt(4) == 0 ? hostileHeaderList(random) : headers(random);
        return new HostileRequest("tail", "GET", target.toString(), headers, new byte[0]);
    }

    /** Push request number {@code index}: only the push kinds (protobuf, framing, JSON, hostile headers). */
    HostileRequest pushRequest(long index) {
        Random random = new Random(~seed * 0x9E3779B97F4A7C15L + index * 0xC2B2AE3D27D4EB4FL);
        int kind = random.nextInt(100);
        try {
            if (kind < 38) {
                return protobufPush(random);
            } else if (kind < 55) {
                return framingGarbage(random);
            } else if (kind < 92) {
                return jsonPush(random);
            }
            return hostilePushHeaders(random);
        } catch (IOException e) {
            throw new UncheckedIOException("BUG: generating push request " + index + " failed", e);
        }
    }

    private String tenant(Random random) {
        return TENANTS.get(random.nextInt(TENANTS.size()));
    }

    private List<String[]> headers(Random random, String... pairs) {
        List<String[]> headers = new ArrayList<>();
        headers.add(new String[] {TenantResolver.HEADER, tenant(random)});
        for (int i = 0; i < pairs.length; i += 2) {
            headers.add(new String[] {pairs[i], pairs[i + 1]});
        }
        return headers;
    }

    // ------------------------------------------------------------------------------------------ pushes

    private PushProto.PushRequest validProto(Random random) {
        PushProto.PushRequest.Builder request = PushProto.PushRequest.newBuilder();
        int streams = 1 + random.nextInt(3);
        for (int s = 0; s < streams; s++) {
            PushProto.StreamAdapter.Builder stream = PushProto.StreamAdapter.newBuilder()
                    .setLabelsBytes(utf8(random.nextInt(10) == 0 ? pick(random, TOKENS) + "{app=\"x\"}"
                            : "{app=\"" + pick(random, List.of("web", "db", "api")) + "\", env=\"e" + random.nextInt(3)
                            + "\"}"));
            int entries = 1 + random.nextInt(5);
            for (int e = 0; e < entries; e++) {
                long ts = baseNanos + random.nextInt(1_000_000) * 1000L;
                PushProto.EntryAdapter.Builder entry = PushProto.EntryAdapter.newBuilder()
                        .setTimestamp(Timestamp.newBuilder().setSeconds(ts / 1_000_000_000L)
                                .setNanos((int) (ts % 1_000_000_000L)))
                        .setLineBytes(utf8(line(random)));
                if (random.nextBoolean()) {
                    entry.addStructuredMetadata(PushProto.LabelPairAdapter.newBuilder().setName("trace_id")
                            .setValue("t" + random.nextInt(100)));
                }
                stream.addEntries(entry);
            }
            request.addStreams(stream);
        }
        return request.build();
    }

    private String line(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> "level=info msg=\"request\" status=" + (200 + random.nextInt(300)) + " duration=" + random.nextInt(900)
                    + "ms";
            case 1 -> "{\"level\":\"error\",\"msg\":\"boom\",\"n\":" + random.nextInt() + "}";
            case 2 -> pick(random, TOKENS) + pick(random, HOSTILE_VALUES);
            case 3 -> "";
            default -> "GET /api/v" + random.nextInt(3) + "/items?id=" + random.nextInt(10_000) + " 200";
        };
    }

    private HostileRequest protobufPush(Random random) throws IOException {
        byte[] raw = validProto(random).toByteArray();
        boolean mutateBefore = random.nextInt(10) < 8;
        if (mutateBefore) {
            raw = mutateBytes(random, raw, 1 + random.nextInt(4));
        }
        byte[] body = random.nextInt(10) == 0 ? raw : Snappy.compress(raw);
        if (!mutateBefore || random.nextInt(4) == 0) {
            body = mutateBytes(random, body, 1 + random.nextInt(3));
        }
        return new HostileRequest("protobuf-push", "POST", PUSH,
                headers(random, "Content-Type", "application/x-protobuf"), body);
    }

    private HostileRequest framingGarbage(Random random) throws IOException {
        byte[] inner = switch (random.nextInt(4)) {
            case 0 -> Snappy.compress(validProto(random).toByteArray());
            case 1 -> JSON.writeValueAsBytes(validJson(random));
            case 2 -> randomBytes(random, random.nextInt(2048));
            default -> Snappy.compress(randomBytes(random, random.nextInt(2048)));
        };
        String type = random.nextBoolean() ? "application/x-protobuf" : "application/json";
        return switch (random.nextInt(5)) {
            case 0 -> new HostileRequest("gzip-garbage", "POST", PUSH,
                    headers(random, "Content-Type", type, "Content-Encoding", "gzip"),
                    mutateBytes(random, gzip(inner), 1 + random.nextInt(3)));
            case 1 -> new HostileRequest("gzip-truncated", "POST", PUSH,
                    headers(random, "Content-Type", type, "Content-Encoding", "gzip"),
                    truncate(random, gzip(inner)));
            case 2 -> new HostileRequest("gzip-of-gzip", "POST", PUSH,
                    headers(random, "Content-Type", type, "Content-Encoding", "gzip"), gzip(gzip(inner)));
            case 3 -> new HostileRequest("random-body", "POST", PUSH, headers(random, "Content-Type", type),
                    randomBytes(random, random.nextInt(4096)));
            default -> new HostileRequest("snappy-header-garbage", "POST", PUSH,
                    headers(random, "Content-Type", "application/x-protobuf"), snappyHeaderGarbage(random));
        };
    }

    /** A snappy block whose varint length prefix claims a huge or negative size, followed by random bytes. */
    private static byte[] snappyHeaderGarbage(Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long claimed = switch (random.nextInt(3)) {
            case 0 -> 0xFFFFFFFFL;
            case 1 -> random.nextInt(Integer.MAX_VALUE);
            default -> random.nextInt(64);
        };
        while (claimed >= 0x80) {
            out.write((int) (claimed & 0x7F) | 0x80);
            claimed >>>= 7;
        }
        out.write((int) claimed);
        out.writeBytes(randomBytes(random, random.nextInt(256)));
        return out.toByteArray();
    }

    private ObjectNode validJson(Random random) {
        ObjectNode root = NODES.objectNode();
        ArrayNode streams = root.putArray("streams");
        int n = 1 + random.nextInt(3);
        for (int s = 0; s < n; s++) {
            ObjectNode stream = streams.addObject();
            ObjectNode labels = stream.putObject("stream");
            labels.put("app", pick(random, List.of("web", "db", "api")));
            labels.put("env", "e" + random.nextInt(3));
            ArrayNode values = stream.putArray("values");
            int entries = 1 + random.nextInt(4);
            for (int e = 0; e < entries; e++) {
                ArrayNode value = values.addArray();
                value.add(Long.toString(baseNanos + random.nextInt(1_000_000) * 1000L));
                value.add(line(random));
                if (random.nextBoolean()) {
                    value.addObject().put("trace_id", "t" + random.nextInt(100));
                }
            }
        }
        return root;
    }

    private HostileRequest jsonPush(Random random) throws IOException {
        ObjectNode root = validJson(random);
        JsonNode mutated = root;
        int mutations = random.nextInt(4);
        for (int m = 0; m < mutations; m++) {
            mutated = mutateTree(random, mutated, 0);
        }
        byte[] body = JSON.writeValueAsBytes(mutated);
        if (random.nextInt(4) == 0) {
            body = mutateText(random, body);
        }
        String type = random.nextInt(10) == 0 ? pick(random, HEADER_VALUES) : "application/json";
        return new HostileRequest("json-push", "POST", PUSH, headers(random, "Content-Type", type), body);
    }

    /** Replaces one node of the tree (chosen by a random walk) with a wrong-typed or hostile value. */
    private JsonNode mutateTree(Random random, JsonNode node, int depth) {
        if ((node.isContainerNode() && node.size() > 0 && random.nextInt(3) != 0) && depth < 8) {
            if (node.isObject()) {
                ObjectNode object = (ObjectNode) node;
                List<String> names = new ArrayList<>();
                object.fieldNames().forEachRemaining(names::add);
                String name = names.get(random.nextInt(names.size()));
                switch (random.nextInt(6)) {
                    case 0 -> object.remove(name);
                    case 1 -> object.set(pick(random, List.of("extra", "", "stream", "values", "streams", "\u0000")),
                            hostileNode(random));
                    default -> object.set(name, mutateTree(random, object.get(name), depth + 1));
                }
            } else {
                ArrayNode array = (ArrayNode) node;
                int i = random.nextInt(array.size());
                switch (random.nextInt(6)) {
                    case 0 -> array.remove(i);
                    case 1 -> array.insert(i, hostileNode(random));
                    default -> array.set(i, mutateTree(random, array.get(i), depth + 1));
                }
            }
            return node;
        }
        return hostileNode(random);
    }

    private JsonNode hostileNode(Random random) {
        return switch (random.nextInt(14)) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.booleanNode(random.nextBoolean());
            case 2 -> NODES.numberNode(random.nextLong());
            case 3 -> NODES.numberNode(random.nextDouble() * 1e300);
            case 4 -> NODES.numberNode(new java.math.BigInteger(200, random));
            case 5 -> NODES.textNode(pick(random, HOSTILE_VALUES));
            case 6 -> NODES.arrayNode();
            case 7 -> NODES.objectNode();
            case 8 -> {
                ArrayNode a = NODES.arrayNode();
                int n = random.nextInt(5);
                for (int i = 0; i < n; i++) {
                    a.add(pick(random, HOSTILE_VALUES));
                }
                yield a;
            }
            case 9 -> {
                JsonNode deep = NODES.textNode("x");
                int depth = 1 + random.nextInt(600);
                for (int i = 0; i < depth; i++) {
                    deep = random.nextBoolean() ? NODES.arrayNode().add(deep) : NODES.objectNode().set("a", deep);
                }
                yield deep;
            }
            case 10 -> NODES.objectNode().put(pick(random, HOSTILE_VALUES), pick(random, HOSTILE_VALUES));
            case 11 -> NODES.arrayNode().add(pick(random, HOSTILE_VALUES)).add(pick(random, HOSTILE_VALUES))
                    .add(NODES.objectNode().put("k", random.nextInt()));
            case 12 -> NODES.textNode(Long.toString(random.nextLong()));
            default -> NODES.textNode(new String(randomBytes(random, random.nextInt(40)), StandardCharsets.ISO_8859_1));
        };
    }

    // ------------------------------------------------------------------------------------------ queries

    private String mutateQuery(Random random, String query) {
        StringBuilder q = new StringBuilder(query);
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations; m++) {
            int at = q.length() == 0 ? 0 : random.nextInt(q.length() + 1);
            switch (random.nextInt(6)) {
                case 0 -> q.insert(at, pick(random, TOKENS));
                case 1 -> {
                    if (q.length() > 0) {
                        int end = Math.min(q.length(), at + 1 + random.nextInt(8));
                        q.delete(Math.min(at, q.length()), end);
                    }
                }
                case 2 -> {
                    if (q.length() > 1) {
                        int from = random.nextInt(q.length());
                        int to = Math.min(q.length(), from + 1 + random.nextInt(20));
                        q.insert(at, q.substring(from, to));
                    }
                }
                case 3 -> q.insert(at, (char) random.nextInt(0x80));
                case 4 -> q.setLength(Math.min(q.length(), at));
                default -> q.insert(at, pick(random, corpus));
            }
        }
        return q.toString();
    }

    private Map<String, String> baseParams(Random random, String route, String query) {
        Map<String, String> params = new java.util.LinkedHashMap<>();
        long end = baseNanos + 2_000_000_000L;
        if (route.endsWith("/series")) {
            params.put("match[]", query);
        } else {
            params.put("query", query);
        }
        if (route.endsWith("/query")) {
            params.put("time", Long.toString(end));
        } else {
            params.put("start", Long.toString(baseNanos - 3_600_000_000_000L));
            params.put("end", Long.toString(end));
        }
        if (random.nextBoolean()) {
            params.put("limit", Integer.toString(1 + random.nextInt(100)));
        }
        if (random.nextBoolean()) {
            params.put("direction", random.nextBoolean() ? "forward" : "backward");
        }
        if (route.endsWith("/query_range") && random.nextBoolean()) {
            params.put("step", pick(random, List.of("15", "60s", "1m", "1h")));
        }
        return params;
    }

    private HostileRequest queryRequest(Random random, String kind, String route, Map<String, String> params,
            List<String[]> headers) {
        StringBuilder encoded = new StringBuilder();
        for (Map.Entry<String, String> p : params.entrySet()) {
            if (encoded.length() > 0) {
                encoded.append('&');
            }
            encoded.append(URLEncoder.encode(p.getKey(), StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(p.getValue(), StandardCharsets.UTF_8));
        }
        if (random.nextInt(4) == 0) {
            headers.add(new String[] {"Content-Type", "application/x-www-form-urlencoded"});
            return new HostileRequest(kind, "POST", route, headers, encoded.toString().getBytes(StandardCharsets.UTF_8));
        }
        return new HostileRequest(kind, "GET", route + "?" + encoded, headers, new byte[0]);
    }

    private HostileRequest mutatedQuery(Random random) {
        String route = pick(random, QUERY_ROUTES);
        String query = mutateQuery(random, pick(random, corpus));
        return queryRequest(random, "logql", route, baseParams(random, route, query), headers(random));
    }

    private HostileRequest hostileParams(Random random) {
        String route = pick(random, QUERY_ROUTES);
        String query = random.nextInt(4) == 0 ? pick(random, corpus) : "{app=~\"web|db\"}"
                + pick(random, List.of("", " |= \"GET\"", " | logfmt", " | json"));
        if (route.endsWith("/query") || route.endsWith("/query_range") && random.nextBoolean()) {
            query = pick(random, List.of(query, "count_over_time(" + query + " [5m])", "sum by (app) (rate(" + query
                    + " [1m]))"));
        }
        Map<String, String> params = baseParams(random, route, query);
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            String value = random.nextInt(5) == 0 ? new String(randomBytes(random, random.nextInt(30)),
                    StandardCharsets.ISO_8859_1) : pick(random, HOSTILE_VALUES);
            String name = pick(random, PARAMS);
            if (random.nextInt(3) == 0) {
                params.remove(name);
            } else {
                params.put(name, value);
            }
        }
        return queryRequest(random, "params", route, params, headers(random));
    }

    private HostileRequest hostileLabelName(Random random) {
        String name = pick(random, LABEL_NAMES);
        if (random.nextBoolean()) {
            name = URLEncoder.encode(new String(randomBytes(random, 1 + random.nextInt(20)), StandardCharsets.ISO_8859_1),
                    StandardCharsets.ISO_8859_1);
        }
        String target = "/loki/api/v1/label/" + name + "/values?start=" + (baseNanos - 3_600_000_000_000L) + "&end="
                + (baseNanos + 2_000_000_000L);
        if (random.nextBoolean()) {
            target += "&query=" + URLEncoder.encode(mutateQuery(random, "{app=\"web\"}"), StandardCharsets.UTF_8);
        }
        return new HostileRequest("label-name", "GET", target, headers(random), new byte[0]);
    }

    private static List<String[]> hostileHeaderList(Random random) {
        List<String[]> headers = new ArrayList<>();
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            String value = random.nextInt(4) == 0 ? new String(randomBytes(random, random.nextInt(30)),
                    StandardCharsets.ISO_8859_1) : pick(random, HEADER_VALUES);
            headers.add(new String[] {pick(random, HEADER_NAMES), value.replace('\r', ' ').replace('\n', ' ')});
        }
        return headers;
    }

    private HostileRequest hostilePushHeaders(Random random) throws IOException {
        List<String[]> headers = hostileHeaderList(random);
        byte[] body = random.nextBoolean() ? Snappy.compress(validProto(random).toByteArray())
                : JSON.writeValueAsBytes(validJson(random));
        return new HostileRequest("headers-push", "POST", PUSH, headers, body);
    }

    private HostileRequest hostileHeaders(Random random) throws IOException {
        if (random.nextBoolean()) {
            return hostilePushHeaders(random);
        }
        List<String[]> headers = hostileHeaderList(random);
        String route = pick(random, QUERY_ROUTES);
        return queryRequest(random, "headers-query", route, baseParams(random, route, "{app=\"web\"}"), headers);
    }

    // ------------------------------------------------------------------------------------------ bytes

    private static byte[] mutateBytes(Random random, byte[] data, int mutations) {
        byte[] out = data;
        for (int m = 0; m < mutations; m++) {
            if (out.length == 0) {
                out = randomBytes(random, 1 + random.nextInt(16));
                continue;
            }
            int at = random.nextInt(out.length);
            switch (random.nextInt(6)) {
                case 0 -> out[at] ^= (byte) (1 << random.nextInt(8));
                case 1 -> out[at] = (byte) random.nextInt(256);
                case 2 -> out = truncate(random, out);
                case 3 -> {
                    int len = Math.min(out.length - at, 1 + random.nextInt(16));
                    byte[] shorter = new byte[out.length - len];
                    System.arraycopy(out, 0, shorter, 0, at);
                    System.arraycopy(out, at + len, shorter, at, out.length - at - len);
                    out = shorter;
                }
                case 4 -> {
                    byte[] insert = randomBytes(random, 1 + random.nextInt(16));
                    byte[] longer = new byte[out.length + insert.length];
                    System.arraycopy(out, 0, longer, 0, at);
                    System.arraycopy(insert, 0, longer, at, insert.length);
                    System.arraycopy(out, at, longer, at + insert.length, out.length - at);
                    out = longer;
                }
                default -> {
                    int len = Math.min(out.length - at, 1 + random.nextInt(64));
                    byte[] longer = new byte[out.length + len];
                    System.arraycopy(out, 0, longer, 0, at + len);
                    System.arraycopy(out, at, longer, at + len, out.length - at);
                    out = longer;
                }
            }
        }
        return out;
    }

    private static byte[] mutateText(Random random, byte[] text) {
        String s = new String(text, StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(s);
        int at = sb.length() == 0 ? 0 : random.nextInt(sb.length());
        switch (random.nextInt(4)) {
            case 0 -> sb.insert(at, pick(random, List.of("{", "}", "[", "]", ",", ":", "\"", "\\", "\\u", "\\ud800",
                    "\u0000", "1e999999", "-", "tru", "nul", "/*", "\u00ff")));
            case 1 -> sb.setLength(at);
            case 2 -> {
                if (sb.length() > 0) {
                    sb.deleteCharAt(at);
                }
            }
            default -> sb.insert(at, sb.substring(at, Math.min(sb.length(), at + 1 + random.nextInt(50))));
        }
        byte[] out = sb.toString().getBytes(StandardCharsets.UTF_8);
        return random.nextInt(4) == 0 ? mutateBytes(random, out, 1) : out;
    }

    /** UTF-8 bytes of {@code s}, a lone surrogate becoming '?' (protobuf's own encoder logs a warning for each). */
    private static ByteString utf8(String s) {
        return ByteString.copyFrom(s.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] truncate(Random random, byte[] data) {
        return java.util.Arrays.copyOf(data, data.length == 0 ? 0 : random.nextInt(data.length));
    }

    private static byte[] randomBytes(Random random, int n) {
        byte[] bytes = new byte[n];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length / 2 + 32);
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    private static <T> T pick(Random random, List<T> list) {
        return list.get(random.nextInt(list.size()));
    }
}
