package io.logbloom.kafka;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** {@link UnflushedClient} over HTTP with Java's client, each request within a timeout. Thread-safe (Java's HTTP client is). */
final class HttpUnflushedClient implements UnflushedClient {
    /** Connecting to a live ingester on the same network takes milliseconds; a dead host should not hold a query long. */
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);

    private final HttpClient http;
    private final Duration timeout;

    /** Each request answered within {@code timeout}. */
    HttpUnflushedClient(Duration timeout) {
        this.timeout = Objects.requireNonNull(timeout, "timeout is null");
        this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
    }

    @Override
    public CompletableFuture<Reply> ask(Announcement member, UnflushedRequest request) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(
                        URI.create("http://" + member.address() + RemoteUnflushedSource.PATH))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(request.toJson()));
        if (request.indexFilesSinceMillis() >= 0) {
            builder.header(UnflushedEndpoint.INDEX_FILES_SINCE_HEADER, String.valueOf(request.indexFilesSinceMillis()));
        }
        HttpRequest http = builder.build();
        return this.http.sendAsync(http, HttpResponse.BodyHandlers.ofByteArray()).thenApply(response -> {
            String text = response.statusCode() == 200 ? ""
                    : new String(response.body(), StandardCharsets.UTF_8).strip();
            if (response.statusCode() == 503 && response.headers().firstValue(UnflushedEndpoint.STARTING_HEADER).isPresent()) {
                throw new CompletionException(new IngesterStartingException("ingester " + member.id() + ": " + text));
            }
            if (response.statusCode() == 503) {
                throw new NotCaughtUpException("ingester " + member.id() + ": " + text);
            }
            if (response.statusCode() != 200) {
                throw new CompletionException(new IOException("status " + response.statusCode() + ": " + text));
            }
            String at = response.headers().firstValue(UnflushedEndpoint.INDEX_FILES_AT_HEADER).orElse(null);
            return new Reply(UnflushedEndpoint.frames(UnflushedEndpoint.framesOf(response.body(), at)),
                    UnflushedEndpoint.partitions(
                            response.headers().firstValue(UnflushedEndpoint.PARTITIONS_HEADER).orElse(null)),
                    response.headers().firstValue(UnflushedEndpoint.INCARNATION_HEADER).orElse(null),
                    UnflushedEndpoint.indexFiles(response.body(), at));
        });
    }
}
