package io.logbloom.loadtest;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Minimal client of the Loki HTTP API: push and {@code query_range}, nothing else.
 *
 * <p>Uses one JDK {@link HttpClient} over HTTP/1.1; each calling thread sends synchronously, so N
 * sender threads hold at most N pooled keep-alive connections. Failures never throw: they come
 * back as an {@link HttpOutcome} classified as an HTTP status, a timeout, a refused connection or
 * another I/O error, which the runners count.
 *
 * <p>Thread-safe: the JDK client is thread-safe and this class holds no other state.
 */
final class LokiClient {
    static final String TENANT_HEADER = "X-Scope-OrgID";
    private static final int MAX_DETAIL_CHARS = 300;

    private final URI baseUri;
    private final String tenant;
    private final Duration timeout;
    private final HttpClient http;

    /** Creates a client for the server at {@code baseUri}; {@code tenant} may be {@code null}. */
    LokiClient(URI baseUri, String tenant, Duration timeout) {
        Objects.requireNonNull(baseUri, "baseUri is null");
        if (baseUri.getScheme() == null || !(baseUri.getScheme().equals("http") || baseUri.getScheme().equals("https"))
                || baseUri.getHost() == null) {
            throw new IllegalArgumentException("url must be http(s)://host[:port], got '" + baseUri + "'");
        }
        String text = baseUri.toString();
        this.baseUri = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
        this.tenant = tenant;
        this.timeout = Objects.requireNonNull(timeout, "timeout is null");
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .build();
    }

    URI baseUri() {
        return baseUri;
    }

    /** Sends one push request body to {@code /loki/api/v1/push}. */
    HttpOutcome push(EncodedPush push) {
        HttpRequest.Builder request = request("/loki/api/v1/push")
                .header("Content-Type", push.contentType())
                .POST(HttpRequest.BodyPublishers.ofByteArray(push.body()));
        if (push.contentEncoding() != null) {
            request.header("Content-Encoding", push.contentEncoding());
        }
        return send(request.build());
    }

    /** Runs a {@code /loki/api/v1/query_range} request; {@code step} may be {@code null} for log queries. */
    HttpOutcome queryRange(String query, long startNanos, long endNanos, int limit, Duration step) {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("query", query);
        parameters.put("start", Long.toString(startNanos));
        parameters.put("end", Long.toString(endNanos));
        parameters.put("limit", Integer.toString(limit));
        parameters.put("direction", "backward");
        if (step != null) {
            // Plain seconds: Loki reads a float first; its duration parser rejects fractions like "1.5s".
            parameters.put("step", Double.toString(step.toMillis() / 1000.0));
        }
        String queryString = parameters.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return send(request("/loki/api/v1/query_range?" + queryString).GET().build());
    }

    private HttpRequest.Builder request(String pathAndQuery) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUri + pathAndQuery)).timeout(timeout);
        if (tenant != null && !tenant.isEmpty()) {
            builder.header(TENANT_HEADER, tenant);
        }
        return builder;
    }

    private HttpOutcome send(HttpRequest request) {
        long start = System.nanoTime();
        try {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            long latency = System.nanoTime() - start;
            String detail = response.statusCode() / 100 == 2 ? ""
                    : truncate(new String(response.body(), StandardCharsets.UTF_8).strip());
            return new HttpOutcome(response.statusCode(), null, detail, latency, response.body(),
                    PushRetryPolicy.parseRetryAfter(response.headers().firstValue("Retry-After").orElse(null),
                            java.time.Instant.now()));
        } catch (HttpConnectTimeoutException e) {
            return new HttpOutcome(-1, "timeout", "connect timed out after " + timeout, -1, new byte[0]);
        } catch (HttpTimeoutException e) {
            return new HttpOutcome(-1, "timeout", "no answer within " + timeout, -1, new byte[0]);
        } catch (ConnectException e) {
            return new HttpOutcome(-1, "connection_refused", "cannot connect to " + baseUri + ": " + e, -1, new byte[0]);
        } catch (IOException e) {
            return new HttpOutcome(-1, "io_error", e.toString(), -1, new byte[0]);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new HttpOutcome(-1, "io_error", "interrupted", -1, new byte[0]);
        }
    }

    private static String truncate(String text) {
        return text.length() <= MAX_DETAIL_CHARS ? text : text.substring(0, MAX_DETAIL_CHARS) + "…";
    }
}
