package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.logbloom.api.QueryFixtureTest.Fixture;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * LogQL conformance with real Grafana Loki: pushes the recorded data set into an in-process Logbloom and
 * compares its normalized answers (stats dropped, streams and series in label order, values as exact
 * strings, sample values to 12 significant digits; a pipeline error compared by its type, not by the series
 * it happened to name first) with the
 * goldens that {@code tools/loki-conformance/record.py} recorded from Loki. Every case
 * must match, except those listed in {@code deliberate-differences.tsv} with a reason, and those must
 * still differ (so the list cannot go stale). No Loki is needed to run it.
 */
final class LokiConformanceTest {
    private static final String DIR = "/loki-conformance/";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @TempDir
    Path dir;

    @Test
    void answers_matchLokiGoldens_exceptDeliberateDifferences() throws Exception {
        List<JsonNode> goldens = goldens();
        Map<String, String> deliberate = deliberateDifferences();
        assertThat(goldens).hasSizeGreaterThanOrEqualTo(300);
        assertThat(goldens.stream().map(g -> g.get("id").asText())).containsAll(deliberate.keySet());

        List<String> answers = new ArrayList<>();
        Map<String, String> unexpected = new TreeMap<>();
        List<String> stale = new ArrayList<>();
        try (Fixture f = Fixture.start(dir, "limits:\n  reject_old_samples: false\n  max_query_series: 10000\n"
                // the goldens were recorded with Loki's enrichment off (tools/loki-conformance/record.py)
                + "  discover_service_name: []\n  discover_log_levels: false\n")) {
            HttpResponse<String> push = f.pushJson(resource("push.json"));
            assertThat(push.statusCode()).as(push.body()).isEqualTo(204);
            for (JsonNode golden : goldens) {
                String id = golden.get("id").asText();
                JsonNode expected = canonical(golden.get("answer"));
                JsonNode actual = canonical(ask(f, golden));
                answers.add(NODES.objectNode().put("id", id).set("answer", actual).toString());
                boolean same = expected.equals(actual);
                if (!same && !deliberate.containsKey(id)) {
                    unexpected.put(id, golden.get("params").get("query").asText() + "\n    loki:      "
                            + abbreviate(expected) + "\n    logbloom:  " + abbreviate(actual));
                } else if (same && deliberate.containsKey(id)) {
                    stale.add(id);
                }
            }
        }
        // Logbloom's answers beside the goldens, for whoever investigates a difference
        java.nio.file.Files.write(Path.of("target", "loki-conformance-answers.jsonl"), answers);
        StringJoiner report = new StringJoiner("\n");
        unexpected.forEach((id, text) -> report.add(id + " " + text));
        assertThat(unexpected.keySet()).as(unexpected.size() + " answers differ from Loki's goldens:\n" + report).isEmpty();
        assertThat(stale).as("listed as deliberate differences but now equal to Loki: remove them").isEmpty();
    }

    /** Logbloom's answer to one golden's request, normalized like record.py normalizes Loki's. */
    private static JsonNode ask(Fixture f, JsonNode golden) throws IOException, InterruptedException {
        String endpoint = golden.get("endpoint").asText();
        StringJoiner query = new StringJoiner("&");
        golden.get("params").fields().forEachRemaining(e ->
                query.add(QueryFixtureTest.enc(e.getKey()) + "=" + QueryFixtureTest.enc(e.getValue().asText())));
        HttpResponse<String> r = f.get("/loki/api/v1/" + endpoint + "?" + query);
        ObjectNode out = NODES.objectNode();
        out.put("status", r.statusCode());
        if (r.statusCode() != 200) {
            out.put("error", r.body().strip());
            return out;
        }
        if (endpoint.equals("format_query")) {
            return out;
        }
        JsonNode data = QueryFixtureTest.JSON.readTree(r.body()).get("data");
        out.set("resultType", data.get("resultType"));
        out.set("result", data.get("result"));
        return out;
    }

    /**
     * A comparable form of an answer: series and streams sorted by their labels, numbers as decimal strings
     * (Loki writes {@code 1700000000} where another writer may write {@code 1.7E9}), stream objects reduced
     * to labels and values.
     */
    static JsonNode canonical(JsonNode answer) {
        ObjectNode out = NODES.objectNode();
        answer.fields().forEachRemaining(e -> out.set(e.getKey(), numbersAsText(e.getValue())));
        String error = out.path("error").asText();
        int series = error.indexOf(" for series: ");
        if (error.startsWith("pipeline error: ") && series > 0) {
            // which failing series a pipeline error names depends on evaluation order: compare the error type only
            out.put("error", error.substring(0, series));
        }
        JsonNode result = out.get("result");
        String type = out.path("resultType").asText();
        if (result instanceof ArrayNode array && !type.equals("scalar")) {
            String labelsField = type.equals("streams") ? "stream" : "metric";
            List<JsonNode> items = new ArrayList<>();
            for (JsonNode item : array) {
                if (type.equals("streams")) {
                    ObjectNode stream = NODES.objectNode();
                    stream.set("stream", item.get("stream"));
                    stream.set("values", item.get("values"));
                    items.add(stream);
                } else {
                    items.add(item);
                }
            }
            if (type.equals("matrix") || type.equals("vector")) {
                items.replaceAll(LokiConformanceTest::roundSampleValues);
            }
            items.sort(Comparator.comparing(item -> labelKey(item.get(labelsField))));
            ArrayNode sorted = NODES.arrayNode();
            items.forEach(sorted::add);
            out.set("result", sorted);
        }
        return out;
    }

    /**
     * Sample values rounded to 12 significant digits: Loki and Logbloom add up series in different orders, which
     * changes the last bits of a mean or a standard deviation but nothing a reader can see.
     */
    private static JsonNode roundSampleValues(JsonNode series) {
        ObjectNode out = ((ObjectNode) series).deepCopy();
        if (out.get("value") instanceof ArrayNode point) {
            out.set("value", roundPoint(point));
        }
        if (out.get("values") instanceof ArrayNode points) {
            ArrayNode rounded = NODES.arrayNode();
            points.forEach(p -> rounded.add(roundPoint((ArrayNode) p)));
            out.set("values", rounded);
        }
        return out;
    }

    private static ArrayNode roundPoint(ArrayNode point) {
        ArrayNode out = NODES.arrayNode();
        out.add(point.get(0));
        String value = point.get(1).asText();
        try {
            java.math.BigDecimal d = new java.math.BigDecimal(value);
            out.add(d.round(new java.math.MathContext(12)).stripTrailingZeros().toPlainString());
        } catch (NumberFormatException e) {
            out.add(value); // NaN, +Inf, -Inf
        }
        return out;
    }

        private static JsonNode numbersAsText(JsonNode node) {
        if (node.isNumber()) {
            return NODES.textNode(node.decimalValue().stripTrailingZeros().toPlainString());
        }
        if (node.isArray()) {
            ArrayNode out = NODES.arrayNode();
            node.forEach(n -> out.add(numbersAsText(n)));
            return out;
        }
        if (node.isObject()) {
            ObjectNode out = NODES.objectNode();
            node.fields().forEachRemaining(e -> out.set(e.getKey(), numbersAsText(e.getValue())));
            return out;
        }
        return node;
    }

    private static String labelKey(JsonNode labels) {
        Map<String, String> sorted = new TreeMap<>();
        if (labels != null) {
            labels.fields().forEachRemaining(e -> sorted.put(e.getKey(), e.getValue().asText()));
        }
        return sorted.toString();
    }

    private static String abbreviate(JsonNode node) {
        String s = node.toString();
        return s.length() > 1500 ? s.substring(0, 1500) + "…" : s;
    }

    private static List<JsonNode> goldens() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : resource("goldens.jsonl").split("\n")) {
            if (!line.isBlank()) {
                out.add(QueryFixtureTest.JSON.readTree(line));
            }
        }
        return out;
    }

    /** id → reason, from {@code deliberate-differences.tsv} (id TAB reason; # comments). */
    private static Map<String, String> deliberateDifferences() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : resource("deliberate-differences.tsv").split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", 2);
            assertThat(f).as("line needs an id and a reason: " + line).hasSize(2);
            assertThat(f[1]).as("reason for " + f[0]).isNotBlank();
            out.put(f[0], f[1]);
        }
        return out;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = LokiConformanceTest.class.getResourceAsStream(DIR + name)) {
            assertThat(in).as("resource " + DIR + name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void canonical_sortsSeriesAndUnifiesNumbers() {
        ObjectNode a = NODES.objectNode();
        a.put("resultType", "vector");
        ArrayNode result = a.putArray("result");
        result.addObject().set("metric", NODES.objectNode().put("pod", "b"));
        result.addObject().set("metric", NODES.objectNode().put("pod", "a"));
        ((ObjectNode) result.get(0)).putArray("value").add(1.7E9).add("1");
        ((ObjectNode) result.get(1)).putArray("value").add(1700000000L).add("2");
        JsonNode c = canonical(a);
        Iterator<JsonNode> items = c.get("result").elements();
        assertThat(items.next().get("metric").get("pod").asText()).isEqualTo("a");
        assertThat(c.get("result").get(1).get("value").get(0).asText()).isEqualTo("1700000000");
        assertThat(c.get("result").get(0).get("value").get(0).asText()).isEqualTo("1700000000");
    }
}
