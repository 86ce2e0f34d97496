package io.logbloom.loadtest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Minimal client of the Loki HTTP API: push and {@code query_range}, nothing else.
 *
 * <p>Uses the JDK's blocking {@link HttpURLConnection} over HTTP/1.1 with keep-alive: each calling
 * thread sends synchronously on a connection of the JDK's keep-alive cache, so N sender threads hold
 * at most N connections (the cache keeps up to {@code http.maxConnections}, default 5, idle ones per
 * server; a busier run opens a new one now and then). It is the client's cost per request that matters here: the harness
 * shares the machine with the server it measures, and {@code java.net.http.HttpClient} took about
 * twice the client CPU over a push run (4.0 against 1.9 s for 3 M lines: its asynchronous plumbing
 * hands each request to a selector thread and a worker, and its larger code kept the client's JIT
 * compilers busy through the whole run).
 * Failures never throw: they come back as an {@link HttpOutcome} classified as an HTTP status, a
 * timeout, a refused connection or another I/O error, which the runners count.
 *
 * <p>Thread-safe: this class holds no mutable state.
 */
final class LokiClient {
    static final String TENANT_HEADER = "X-Scope-OrgID";
    private static final int MAX_DETAIL_CHARS = 300;

    private final URI baseUri;
    private final String tenant;
    private final Duration timeout;

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
        if (timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("timeout must be between 1 ms and " + Integer.MAX_VALUE + " ms, got "
                    + timeout);
        }
    }

    URI baseUri() {
        return baseUri;
    }

    /** Sends one push request body to {@code /loki/api/v1/push}. */
    HttpOutcome push(EncodedPush push) {
        return send("/loki/api/v1/push", push);
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
        return send("/loki/api/v1/query_range?" + queryString, null);
    }

    /** A GET of {@code pathAndQuery}, or a POST of {@code push} when it is not null. */
    private HttpOutcome send(String pathAndQuery, EncodedPush push) {
        long start = System.nanoTime();
        HttpURLConnection connection = null;
        try {
            connection = (HttpURLConnection) URI.create(baseUri + pathAndQuery).toURL().openConnection();
            connection.setConnectTimeout((int) timeout.toMillis());
            connection.setReadTimeout((int) timeout.toMillis());
            connection.setUseCaches(false);
            if (tenant != null && !tenant.isEmpty()) {
                connection.setRequestProperty(TENANT_HEADER, tenant);
            }
            if (push != null) {
                connection.setRequestMethod("POST");
                connection.setDoOutput(true);
                connection.setRequestProperty("Content-Type", push.contentType());
                if (push.contentEncoding() != null) {
                    connection.setRequestProperty("Content-Encoding", push.contentEncoding());
                }
                // streamed, not buffered: no copy of the body, and the JDK cannot resend a push behind our back
                connection.setFixedLengthStreamingMode(push.body().length);
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(push.body());
                }
            }
            int status = connection.getResponseCode();
            byte[] body;
            // read to the end and closed: only then does the connection go back to the keep-alive cache
            try (InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream()) {
                body = in == null ? new byte[0] : in.readAllBytes();
            }
            long latency = System.nanoTime() - start;
            String detail = status / 100 == 2 ? "" : truncate(new String(body, StandardCharsets.UTF_8).strip());
            return new HttpOutcome(status, null, detail, latency, body,
                    PushRetryPolicy.parseRetryAfter(connection.getHeaderField("Retry-After"), java.time.Instant.now()));
        } catch (SocketTimeoutException e) {
            disconnect(connection);
            return new HttpOutcome(-1, "timeout", (e.getMessage() != null && e.getMessage().contains("connect")
                    ? "connect timed out after " : "no answer within ") + timeout, -1, new byte[0]);
        } catch (ConnectException e) {
            disconnect(connection);
            return new HttpOutcome(-1, "connection_refused", "cannot connect to " + baseUri + ": " + e, -1, new byte[0]);
        } catch (IOException | RuntimeException e) {
            disconnect(connection);
            return new HttpOutcome(-1, "io_error", e.toString(), -1, new byte[0]);
        }
    }

    /** Drops a connection whose exchange failed, so the keep-alive cache never hands it out again. */
    private static void disconnect(HttpURLConnection connection) {
        if (connection != null) {
            connection.disconnect();
        }
    }

    private static String truncate(String text) {
        return text.length() <= MAX_DETAIL_CHARS ? text : text.substring(0, MAX_DETAIL_CHARS) + "…";
    }
}
