package io.logbloom.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How {@link HttpUnflushedClient} reads an ingester's 503s: starting (retried by strong reads) or behind (fails). */
final class HttpUnflushedClientTest {
    private HttpServer server;

    private Announcement serving(int status, Map<String, String> headers, String body) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(RemoteUnflushedSource.PATH, exchange -> {
            exchange.getRequestBody().readAllBytes();
            headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return new Announcement("id-a", "ingester", "127.0.0.1:" + server.getAddress().getPort(), List.of(0), 0);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private static Throwable failureOf(Announcement member) {
        UnflushedRequest request = new UnflushedRequest("t", 0, 1, List.of(), Map.of(0, 5L), 1000);
        try {
            new HttpUnflushedClient(Duration.ofSeconds(5)).ask(member, request).join();
        } catch (CompletionException e) {
            Throwable cause = e;
            while (cause instanceof CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            return cause;
        }
        return Assertions.fail("the request succeeded");
    }

    @Test
    void status503_withStartingHeader_isIngesterStarting() throws Exception {
        Announcement member = serving(503, Map.of(UnflushedEndpoint.STARTING_HEADER, "true"),
                "Ingester not ready: not consuming Kafka yet\n");

        assertThat(failureOf(member)).isInstanceOf(IngesterStartingException.class)
                .hasMessage("ingester id-a: Ingester not ready: not consuming Kafka yet");
    }

    @Test
    void status503_withoutIt_isNotCaughtUp() throws Exception {
        Announcement member = serving(503, Map.of(), "partitions {0=3} behind");

        assertThat(failureOf(member)).isInstanceOf(NotCaughtUpException.class).hasMessageContaining("{0=3} behind");
    }
}
