package io.logbloom.loadtest;

import java.util.Objects;

/**
 * A push request body ready to send, with what it carries.
 *
 * <p>Thread-safe as long as nobody writes into {@code body}; the harness never does.
 *
 * @param body the request body bytes
 * @param contentType value of the {@code Content-Type} header
 * @param contentEncoding value of the {@code Content-Encoding} header, or {@code null} for none
 * @param lines number of log lines in the body
 * @param lineBytes sum of the line lengths in bytes (uncompressed payload)
 * @param needle one line of the body to look up later
 * @param oldestNanos earliest timestamp in the body
 * @param newestNanos latest timestamp in the body
 */
public record EncodedPush(byte[] body, String contentType, String contentEncoding, int lines, long lineBytes, Needle needle,
        long oldestNanos, long newestNanos) {
    /** Validates the values. */
    public EncodedPush {
        Objects.requireNonNull(body, "body is null");
        Objects.requireNonNull(contentType, "contentType is null");
        Objects.requireNonNull(needle, "needle is null");
    }
}
