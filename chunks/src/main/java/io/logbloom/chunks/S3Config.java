package io.logbloom.chunks;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Connection settings of the S3 object store.
 *
 * @param endpoint endpoint override (MinIO, s3proxy, ...), or null for AWS's regional endpoint
 * @param bucket bucket name (must exist)
 * @param region signing region, e.g. {@code us-east-1}
 * @param accessKey static access key, or null to use the AWS default credentials chain
 * @param secretKey static secret key; null exactly when {@code accessKey} is null
 * @param pathStyleAccess whether to address the bucket as a path ({@code endpoint/bucket/key}), as
 *     MinIO and most non-AWS servers need
 * @param prefix prepended to every key (e.g. {@code "logbloom/"}); empty for none
 * @param responseHeaderTimeout how long a request waits for the store to answer (each read of the response), as
 *     Loki's {@code http_config.response_header_timeout}; zero for no limit
 */
public record S3Config(URI endpoint, String bucket, String region, String accessKey, String secretKey,
        boolean pathStyleAccess, String prefix, Duration responseHeaderTimeout) {
    /**
     * The S3 client's own read timeout, kept as the default: a request in flight when the store goes away fails after
     * this long (and is retried), so a merge or query can wait about this long at the start of an outage.
     */
    public static final Duration DEFAULT_RESPONSE_HEADER_TIMEOUT = Duration.ofSeconds(30);

    /** With the default response timeout. */
    public S3Config(URI endpoint, String bucket, String region, String accessKey, String secretKey,
            boolean pathStyleAccess, String prefix) {
        this(endpoint, bucket, region, accessKey, secretKey, pathStyleAccess, prefix, DEFAULT_RESPONSE_HEADER_TIMEOUT);
    }

    public S3Config {
        Objects.requireNonNull(bucket, "bucket is null");
        Objects.requireNonNull(region, "region is null");
        prefix = prefix == null ? "" : prefix;
        Objects.requireNonNull(responseHeaderTimeout, "responseHeaderTimeout is null");
        if (responseHeaderTimeout.isNegative()) {
            throw new IllegalArgumentException("S3 response header timeout " + responseHeaderTimeout + " is negative");
        }
        if (bucket.isBlank()) {
            throw new IllegalArgumentException("S3 bucket is empty");
        }
        if (region.isBlank()) {
            throw new IllegalArgumentException("S3 region is empty");
        }
        if ((accessKey == null) != (secretKey == null)) {
            throw new IllegalArgumentException("S3 access key and secret key must be given together (access key "
                    + (accessKey == null ? "missing" : "given") + ", secret key "
                    + (secretKey == null ? "missing" : "given") + ")");
        }
        if (endpoint != null && (endpoint.getScheme() == null || endpoint.getHost() == null)) {
            throw new IllegalArgumentException("S3 endpoint '" + endpoint + "' is not an absolute http(s) URI");
        }
        if (!prefix.isEmpty()) {
            ObjectKeys.validatePrefix(prefix);
            if (!prefix.endsWith("/")) {
                throw new IllegalArgumentException("S3 key prefix '" + prefix + "' must end with '/'");
            }
            ObjectKeys.validate(prefix.substring(0, prefix.length() - 1));
        }
    }

    /** The secret key is never printed. */
    @Override
    public String toString() {
        return "S3Config[endpoint=" + endpoint + ", bucket=" + bucket + ", region=" + region + ", accessKey="
                + (accessKey == null ? "<default chain>" : accessKey) + ", secretKey=" + (secretKey == null ? "null"
                        : "***") + ", pathStyleAccess=" + pathStyleAccess + ", prefix=" + prefix
                + ", responseHeaderTimeout=" + responseHeaderTimeout + "]";
    }
}
