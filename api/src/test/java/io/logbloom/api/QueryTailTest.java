package io.logbloom.api;

import static io.logbloom.api.QueryFixtureTest.enc;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Live tail over WebSocket: lines pushed after connecting arrive, filtered by the query's pipeline. */
final class QueryTailTest {
    @TempDir
    Path dir;

    @Test
    void tail_receivesMatchingLinesPushedAfterConnect() throws Exception {
        try (QueryFixtureTest.Fixture f = QueryFixtureTest.Fixture.start(dir, "")) {
            LinkedBlockingQueue<String> messages = new LinkedBlockingQueue<>();
            WebSocket.Listener listener = new WebSocket.Listener() {
                private final StringBuilder partial = new StringBuilder();

                @Override
                public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                    partial.append(data);
                    if (last) {
                        messages.add(partial.toString());
                        partial.setLength(0);
                    }
                    ws.request(1);
                    return null;
                }

                @Override
                public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
                    messages.add("closed " + statusCode + " " + reason);
                    return null;
                }
            };
            long start = System.currentTimeMillis() * 1_000_000L;
            URI uri = URI.create("ws://127.0.0.1:" + f.server.port() + "/loki/api/v1/tail?query="
                    + enc("{app=\"tail\"} |= \"keep\"") + "&delay_for=0&limit=10&start=" + start);
            WebSocket ws = f.http.newWebSocketBuilder().buildAsync(uri, listener).get(10, TimeUnit.SECONDS);
            try {
                long ts = System.currentTimeMillis() * 1_000_000L;
                String json = "{\"streams\":[{\"stream\":{\"app\":\"tail\"},\"values\":[[\"" + ts
                        + "\",\"keep one\"],[\"" + (ts + 1) + "\",\"drop me\"],[\"" + (ts + 2) + "\",\"keep two\"]]},"
                        + "{\"stream\":{\"app\":\"other\"},\"values\":[[\"" + ts + "\",\"keep not mine\"]]}]}";
                HttpResponse<String> push = f.pushJson(json);
                assertThat(push.statusCode()).as(push.body()).isEqualTo(204);
                List<String> lines = new ArrayList<>();
                long deadline = System.currentTimeMillis() + 10_000;
                while (lines.size() < 2 && System.currentTimeMillis() < deadline) {
                    String msg = messages.poll(500, TimeUnit.MILLISECONDS);
                    if (msg == null) {
                        continue;
                    }
                    assertThat(msg).doesNotStartWith("closed ");
                    JsonNode body = QueryFixtureTest.JSON.readTree(msg);
                    for (JsonNode stream : body.get("streams")) {
                        assertThat(stream.get("stream").get("app").asText()).isEqualTo("tail");
                        for (JsonNode v : stream.get("values")) {
                            lines.add(v.get(1).asText());
                        }
                    }
                }
                assertThat(lines).containsExactly("keep one", "keep two");
            } finally {
                ws.abort();
            }
        }
    }

    @Test
    void tail_badQuery_closesWithMessage() throws Exception {
        try (QueryFixtureTest.Fixture f = QueryFixtureTest.Fixture.start(dir, "")) {
            CompletableFuture<String> closed = new CompletableFuture<>();
            WebSocket.Listener listener = new WebSocket.Listener() {
                @Override
                public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
                    closed.complete(statusCode + " " + reason);
                    return null;
                }
            };
            URI uri = URI.create("ws://127.0.0.1:" + f.server.port() + "/loki/api/v1/tail?query="
                    + enc("rate({app=\"x\"}[1m])"));
            f.http.newWebSocketBuilder().buildAsync(uri, listener).get(10, TimeUnit.SECONDS);
            assertThat(closed.get(10, TimeUnit.SECONDS)).isEqualTo("1008 tail requires a log query, got a metric query");
        }
    }
}
