package io.logbloom.api;

import io.javalin.http.HttpResponseException;
import io.logbloom.ingest.IngesterFailedException;
import io.logbloom.ingest.PushBackpressureException;
import io.logbloom.ingest.PushDecodeException;
import io.logbloom.ingest.WalWriteException;
import java.io.EOFException;
import java.io.UncheckedIOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.zip.ZipException;

/**
 * The one place where exceptions become HTTP answers, as Loki's {@code util/server/error.go}: each
 * exception maps to a status, a client-safe plain-text message and a metric label, so routes cannot
 * drift apart. Bad input (our {@link HttpException}, {@link PushDecodeException},
 * {@link IllegalArgumentException}, a truncated or corrupt request body) is always 4xx; only
 * failures of the server itself are 5xx (503 when the ingester cannot persist: the client should
 * retry elsewhere or later; 429 when its memory budget is exhausted), and their text never leaks
 * internals (paths, keys, stack traces) — those are logged by the caller. A push the WAL could not
 * take is 507 when its volume is out of space and 503 otherwise: retryable, and nothing of it was
 * acknowledged. Stateless and thread-safe.
 */
public final class HttpErrors {
    /**
     * Loki's answer to a query past its deadline ({@code ErrDeadlineExceeded} in
     * {@code pkg/util/server/error.go}), sent with 504.
     */
    public static final String DEADLINE_EXCEEDED = "request timed out, decrease the duration of the request or add more"
            + " label matchers (prefer exact match over regex match) to reduce the amount of data processed";

    /** The answer for one failed request. */
    public record Classified(int status, String message, String reason) {}

    /** Metric reason of pushes refused because the ingester cannot persist (logged once by the ingester, not per request). */
    public static final String INGESTER_FAILED = "ingester_failed";

    private HttpErrors() {}

    /** The status, client message and metric reason for {@code error}. */
    public static Classified classify(Throwable error) {
        Throwable e = unwrap(error);
        if (e instanceof HttpException h) {
            return new Classified(h.status(), h.getMessage(), h.reason());
        }
        if (e instanceof HttpResponseException h) {
            return new Classified(h.getStatus(), h.getMessage(), "http_" + h.getStatus());
        }
        if (e instanceof PushBackpressureException b) {
            return new Classified(429, e.getMessage(), b.reason());
        }
        if (e instanceof IngesterFailedException) {
            return new Classified(503, e.getMessage(), INGESTER_FAILED);
        }
        if (e instanceof WalWriteException w) {
            return w.outOfSpace()
                    ? new Classified(507, "push not accepted: the write-ahead log volume is out of space; retry later",
                            "wal_out_of_space")
                    : new Classified(503, "push not accepted: the write-ahead log cannot be written; retry later",
                            "wal_unavailable");
        }
        if (e instanceof io.logbloom.kafka.NotCaughtUpException || e instanceof io.logbloom.kafka.KafkaUnavailableException) {
            return new Classified(503, e.getMessage(), "not_caught_up");
        }
        if (e instanceof PushDecodeException) {
            return new Classified(400, e.getMessage(), "bad_request");
        }
        if (e instanceof ZipException || e instanceof EOFException) {
            return new Classified(400, "malformed request body: " + e.getMessage(), "bad_request");
        }
        if (e instanceof IllegalArgumentException) {
            return new Classified(400, String.valueOf(e.getMessage()), "bad_request");
        }
        if (e instanceof TimeoutException) {
            return new Classified(504, DEADLINE_EXCEEDED, "timeout");
        }
        if (e instanceof CancellationException) {
            return new Classified(499, "request cancelled", "cancelled");
        }
        return new Classified(500, "internal server error (" + e.getClass().getSimpleName()
                + "); see the server log", "internal");
    }

    private static Throwable unwrap(Throwable e) {
        Throwable current = e;
        while ((current instanceof ExecutionException || current instanceof UncheckedIOException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }
}
