package io.logbloom.loadtest;

import java.util.Objects;

/**
 * How a push run sends.
 *
 * <p>Immutable and thread-safe.
 *
 * @param connections concurrent connections (one sender thread and one lane of streams each)
 * @param linesPerSecond target line rate, or 0 to push flat out
 * @param producers threads that generate and encode bodies ahead of the senders
 * @param encoding body format
 * @param maxLines lines to send at most (the run stops once they are sent), or 0 for no bound
 * @param pregenerate whether every body is generated and encoded before the timed phase (needs
 *     {@code maxLines}), so the client spends the timed phase only on sending
 * @param retry how a push refused with 429 is retried ({@link PushRetryPolicy#NONE}: never)
 */
public record PushSettings(int connections, double linesPerSecond, int producers, PushEncoding encoding,
        long maxLines, boolean pregenerate, PushRetryPolicy retry) {
    /** Settings that never retry a refused push. */
    public PushSettings(int connections, double linesPerSecond, int producers, PushEncoding encoding, long maxLines,
            boolean pregenerate) {
        this(connections, linesPerSecond, producers, encoding, maxLines, pregenerate, PushRetryPolicy.NONE);
    }

    /** Validates the values and names the offending one. */
    public PushSettings {
        if (connections < 1) {
            throw new IllegalArgumentException("connections must be >= 1, got " + connections);
        }
        if (linesPerSecond < 0 || Double.isNaN(linesPerSecond) || Double.isInfinite(linesPerSecond)) {
            throw new IllegalArgumentException("rate must be >= 0 lines/s (0 = flat out), got " + linesPerSecond);
        }
        if (producers < 1) {
            throw new IllegalArgumentException("producers must be >= 1, got " + producers);
        }
        Objects.requireNonNull(encoding, "encoding is null");
        Objects.requireNonNull(retry, "retry is null");
        if (maxLines < 0) {
            throw new IllegalArgumentException("lines must be >= 0 (0 = no bound), got " + maxLines);
        }
        if (pregenerate && maxLines == 0) {
            throw new IllegalArgumentException("pregenerate needs a bound on the lines (--lines N) to know what to generate");
        }
    }
}
