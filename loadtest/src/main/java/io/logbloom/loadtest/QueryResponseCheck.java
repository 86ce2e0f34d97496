package io.logbloom.loadtest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a {@code query_range} answer against Loki's response shape and, for needle queries,
 * that exactly the expected line came back; for count queries, that the values of the last point of
 * every series sum to the push's tally.
 *
 * <p>Thread-safe: the shared {@link ObjectMapper} is thread-safe once configured.
 */
final class QueryResponseCheck {
    static final String FOUND = "found";
    static final String MISSING = "needle_missing";
    static final String WRONG = "needle_wrong";
    static final String BAD_RESPONSE = "bad_response";
    static final String COUNT_RIGHT = "count_right";
    static final String COUNT_WRONG = "count_wrong";

    private final ObjectMapper json = new ObjectMapper();

    /**
     * The verdict on one answer.
     *
     * @param failure {@code null} when the answer is right, else the error key to count it under
     * @param detail explanation of a failure
     * @param lines log lines (or series, for metric queries) returned
     */
    record Verdict(String failure, String detail, int lines) {}

    /** Checks the body of a 2xx answer to {@code query}. */
    Verdict check(PlannedQuery query, byte[] body) {
        JsonNode root;
        try {
            root = json.readTree(body);
        } catch (IOException e) {
            return new Verdict(BAD_RESPONSE, "response is not JSON: " + e.getMessage(), 0);
        }
        if (root == null || !"success".equals(root.path("status").asText())) {
            return new Verdict(BAD_RESPONSE, "status is not success in response of " + query.logql(), 0);
        }
        String expectedType = query.step() == null ? "streams" : "matrix";
        String resultType = root.path("data").path("resultType").asText();
        if (!expectedType.equals(resultType)) {
            return new Verdict(BAD_RESPONSE, "resultType '" + resultType + "' but expected '" + expectedType
                    + "' for " + query.logql(), 0);
        }
        JsonNode result = root.path("data").path("result");
        if (query.step() != null) {
            return query.expectedCount() < 0 ? new Verdict(null, "", result.size()) : checkCount(query, result);
        }
        List<String> lines = new ArrayList<>();
        for (JsonNode stream : result) {
            for (JsonNode value : stream.path("values")) {
                lines.add(value.path(1).asText());
            }
        }
        Needle expected = query.expected();
        if (expected == null) {
            return new Verdict(null, "", lines.size());
        }
        if (lines.isEmpty()) {
            return new Verdict(MISSING, "no line for trace_id " + expected.traceId() + " (" + query.logql() + ")", 0);
        }
        if (lines.size() != 1 || !lines.get(0).equals(expected.line())) {
            return new Verdict(WRONG, lines.size() + " lines for trace_id " + expected.traceId()
                    + ", expected exactly: " + expected.line(), lines.size());
        }
        return new Verdict(null, "", 1);
    }

    private static Verdict checkCount(PlannedQuery query, JsonNode result) {
        double sum = 0;
        for (JsonNode series : result) {
            JsonNode values = series.path("values");
            if (values.isEmpty()) {
                continue;
            }
            JsonNode value = values.get(values.size() - 1).path(1);
            try {
                sum += Double.parseDouble(value.asText());
            } catch (NumberFormatException e) {
                return new Verdict(BAD_RESPONSE, "sample value '" + value.asText() + "' is not a number in the answer to "
                        + query.logql(), result.size());
            }
        }
        if (sum != query.expectedCount()) {
            return new Verdict(COUNT_WRONG, "counted " + (long) sum + " lines where the push acknowledged "
                    + query.expectedCount() + " (" + query.logql() + ")", result.size());
        }
        return new Verdict(null, "", result.size());
    }
}
