package io.logbloom.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Timed GETs of the reports, over the JDK's blocking {@link HttpURLConnection} kept alive between calls, as the
 * load-test harness sends: {@code java.net.http.HttpClient}'s asynchronous plumbing costs the measuring JVM's
 * compilers CPU that a server on the same 2 cores then lacks, and it showed in the needles' round trip (fresh client
 * JVM, needles 1-15 after a restart: 8.5-10.2 ms with it, 6.8-6.9 ms with this; the server's own execTime 4.8-5.0
 * against 3.9 ms). Stateless.
 */
final class BlockingHttp {
    private BlockingHttp() {}

    /** A status and the body as text. */
    record Response(int status, String body) {}

    /** GETs {@code url}: connect within 5 s, the answer within {@code timeout}. */
    static Response get(String url, Duration timeout) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
        connection.setConnectTimeout((int) Duration.ofSeconds(5).toMillis());
        connection.setReadTimeout((int) timeout.toMillis());
        int status = connection.getResponseCode();
        byte[] body;
        // read to the end and closed: only then does the connection go back to the keep-alive cache
        try (InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream()) {
            body = in == null ? new byte[0] : in.readAllBytes();
        }
        return new Response(status, new String(body, StandardCharsets.UTF_8));
    }
}
