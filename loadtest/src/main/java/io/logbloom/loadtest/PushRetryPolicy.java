package io.logbloom.loadtest;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * How a sender retries a push the server refused with 429, as Promtail and Alloy do: the same body
 * again (so the stream's timestamps stay ordered on the wire), after the server's {@code Retry-After}
 * when it sent one, else after an exponential backoff from {@code minBackoff} doubling per attempt;
 * every wait capped at {@code maxBackoff}, at most {@code maxRetries} retries, then the push counts as
 * failed. {@link #NONE} never retries (a 429 is a failure at once).
 *
 * <p>Immutable and thread-safe.
 *
 * @param maxRetries retries of one push after its first attempt (0 = never retry)
 * @param minBackoff first wait without a {@code Retry-After}
 * @param maxBackoff longest wait, also for a longer {@code Retry-After}
 */
public record PushRetryPolicy(int maxRetries, Duration minBackoff, Duration maxBackoff) {
    /** Never retries. */
    public static final PushRetryPolicy NONE = new PushRetryPolicy(0, Duration.ofMillis(500), Duration.ofMillis(500));

    /** Validates and names the offending value. */
    public PushRetryPolicy {
        Objects.requireNonNull(minBackoff, "minBackoff is null");
        Objects.requireNonNull(maxBackoff, "maxBackoff is null");
        if (maxRetries < 0) {
            throw new IllegalArgumentException("max retries must be >= 0, got " + maxRetries);
        }
        if (minBackoff.isNegative() || minBackoff.isZero()) {
            throw new IllegalArgumentException("min backoff must be positive, got " + minBackoff);
        }
        if (maxBackoff.compareTo(minBackoff) < 0) {
            throw new IllegalArgumentException("max backoff " + maxBackoff + " is below min backoff " + minBackoff);
        }
    }

    /** Whether a push answered {@code status} is retried after {@code retriesSoFar} retries. */
    boolean retries(int status, int retriesSoFar) {
        return status == 429 && retriesSoFar < maxRetries;
    }

    /**
     * The wait before retry number {@code retry} (1 for the first): {@code retryAfter} when the server
     * sent one, else {@code minBackoff * 2^(retry-1)}; never above {@code maxBackoff}.
     */
    Duration delay(int retry, Duration retryAfter) {
        if (retryAfter != null) {
            return retryAfter.compareTo(maxBackoff) > 0 ? maxBackoff : retryAfter;
        }
        int doublings = Math.min(Math.max(0, retry - 1), 30);
        long millis = minBackoff.toMillis() << doublings;
        return millis >= maxBackoff.toMillis() || millis < 0 ? maxBackoff : Duration.ofMillis(millis);
    }

    /**
     * The wait a {@code Retry-After} value asks for (RFC 9110: delay-seconds or an HTTP-date, taken
     * relative to {@code now}; a date in the past is no wait), or null when the value is absent or
     * neither form.
     */
    static Duration parseRetryAfter(String value, Instant now) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String text = value.trim();
        if (text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            try {
                return Duration.ofSeconds(Long.parseLong(text));
            } catch (NumberFormatException e) {
                return null; // more digits than a long: not a usable wait
            }
        }
        try {
            Instant at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO;
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
