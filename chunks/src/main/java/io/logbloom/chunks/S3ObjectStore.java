package io.logbloom.chunks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An {@link ObjectStore} on S3 or any S3-compatible server (MinIO, s3proxy) through AWS SDK v2 with
 * the JDK URL-connection HTTP client. Objects are written with one PutObject (atomic on S3; our
 * objects stay far below the 5 GiB single-put limit, so no multipart). Missing keys map to
 * {@link ObjectNotFoundException}; other SDK failures become IOExceptions naming the operation, key
 * and bucket. Keys are validated by {@link ObjectKeys} and prefixed with {@link S3Config#prefix()}.
 *
 * <p>Thread-safe: the SDK client is thread-safe and this class has no other mutable state.
 */
public final class S3ObjectStore implements ObjectStore {
    /** S3 answers 416 for a range starting at or past the end of the object. */
    private static final int HTTP_RANGE_NOT_SATISFIABLE = 416;
    private static final int HTTP_NOT_FOUND = 404;
    /** S3's own maximum (and default) number of keys per list page. */
    static final int MAX_LIST_PAGE_SIZE = 1000;

    private final S3Config config;
    private final S3Client client;
    private final int listPageSize;

    /** A store connected as {@code config} says; the bucket is not checked until the first call. */
    public S3ObjectStore(S3Config config) {
        this(config, MAX_LIST_PAGE_SIZE);
    }

    /** As {@link #S3ObjectStore(S3Config)} with smaller list pages, so tests exercise pagination cheaply. */
    S3ObjectStore(S3Config config, int listPageSize) {
        this.config = Objects.requireNonNull(config, "config is null");
        if (listPageSize < 1 || listPageSize > MAX_LIST_PAGE_SIZE) {
            throw new IllegalArgumentException("list page size " + listPageSize + " is outside [1, "
                    + MAX_LIST_PAGE_SIZE + "]");
        }
        this.listPageSize = listPageSize;
        AwsCredentialsProvider credentials = config.accessKey() == null
                ? DefaultCredentialsProvider.create()
                : StaticCredentialsProvider.create(AwsBasicCredentials.create(config.accessKey(), config.secretKey()));
        S3ClientBuilder builder = S3Client.builder()
                .httpClientBuilder(UrlConnectionHttpClient.builder().socketTimeout(config.responseHeaderTimeout()))
                .region(Region.of(config.region()))
                .credentialsProvider(credentials)
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(config.pathStyleAccess()).build())
                .overrideConfiguration(o -> o.addExecutionInterceptor(new NoExpectContinue()));
        if (config.endpoint() != null) {
            builder.endpointOverride(config.endpoint());
        }
        this.client = builder.build();
    }

    /**
     * Drops the {@code Expect: 100-continue} header the SDK adds to PutObject. With the JDK's
     * HttpURLConnection an error answer to that handshake (e.g. NoSuchBucket) can stall the request
     * until the socket timeout and a retry (JDK-8054022, aws-sdk-java-v2#3050); we saw 60 s hangs
     * against s3proxy. Our objects are small, so skipping the handshake costs nothing.
     */
    private static final class NoExpectContinue implements ExecutionInterceptor {
        @Override
        public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context,
                ExecutionAttributes executionAttributes) {
            SdkHttpRequest request = context.httpRequest();
            return request.firstMatchingHeader("Expect").isPresent()
                    ? request.toBuilder().removeHeader("Expect").build()
                    : request;
        }
    }

    private String fullKey(String key) {
        ObjectKeys.validate(key);
        return config.prefix() + key;
    }

    /** Whether {@code e} says the key is absent (S3 names it, or a server answered a bare 404). */
    private static boolean notFound(SdkException e) {
        return e instanceof NoSuchKeyException || e instanceof S3Exception s3 && s3.statusCode() == HTTP_NOT_FOUND;
    }

    /** Whether {@code e} is a 416: the range starts at or past the object's end. */
    private static boolean rangeNotSatisfiable(SdkException e) {
        return e instanceof S3Exception s3 && s3.statusCode() == HTTP_RANGE_NOT_SATISFIABLE;
    }

    private IOException failure(String operation, String key, SdkException e) {
        return new IOException("S3 " + operation + " of '" + key + "' in bucket '" + config.bucket() + "' failed: "
                + e.getMessage(), e);
    }

    @Override
    public void put(String key, byte[] data) throws IOException {
        Objects.requireNonNull(data, "data is null");
        String full = fullKey(key);
        try {
            client.putObject(b -> b.bucket(config.bucket()).key(full).contentLength((long) data.length),
                    RequestBody.fromBytes(data));
        } catch (SdkException e) {
            throw failure("put", key, e);
        }
    }

    @Override
    public byte[] get(String key) throws IOException {
        String full = fullKey(key);
        try {
            return client.getObjectAsBytes(b -> b.bucket(config.bucket()).key(full)).asByteArray();
        } catch (SdkException e) {
            if (notFound(e)) {
                throw new ObjectNotFoundException(key);
            }
            throw failure("get", key, e);
        }
    }

    @Override
    public byte[] getRange(String key, long offset, int length) throws IOException {
        FileSystemObjectStore.checkRange(offset, length);
        String full = fullKey(key);
        if (length == 0) {
            if (!exists(key)) {
                throw new ObjectNotFoundException(key);
            }
            return new byte[0];
        }
        String range = "bytes=" + offset + "-" + (offset + length - 1);
        try {
            ResponseBytes<GetObjectResponse> bytes =
                    client.getObjectAsBytes(b -> b.bucket(config.bucket()).key(full).range(range));
            byte[] data = bytes.asByteArray();
            if (data.length > length) {
                throw new IOException("S3 range " + range + " of '" + key + "' returned " + data.length + " bytes");
            }
            return data;
        } catch (SdkException e) {
            if (notFound(e)) {
                throw new ObjectNotFoundException(key);
            }
            if (rangeNotSatisfiable(e)) {
                return new byte[0];
            }
            throw failure("ranged get", key, e);
        }
    }

    /** One GET with a suffix range: the tail and, from its {@code Content-Range}, the object's size. */
    @Override
    public ObjectTail getTail(String key, int maxLength) throws IOException {
        if (maxLength <= 0) {
            return ObjectStore.super.getTail(key, maxLength);
        }
        String full = fullKey(key);
        try {
            ResponseBytes<GetObjectResponse> bytes =
                    client.getObjectAsBytes(b -> b.bucket(config.bucket()).key(full).range("bytes=-" + maxLength));
            byte[] data = bytes.asByteArray();
            long size = totalSize(bytes.response().contentRange(), data.length);
            if (size < 0) {
                return ObjectStore.super.getTail(key, maxLength); // a server naming no size: ask for it
            }
            if (size == data.length && data.length > maxLength) {
                // a server ignoring the range sent the whole object: keep its tail
                return new ObjectTail(Arrays.copyOfRange(data, data.length - maxLength, data.length), size);
            }
            if (data.length != Math.min(size, maxLength)) {
                throw new IOException("S3 suffix range of " + maxLength + " bytes of '" + key + "' returned "
                        + data.length + " bytes of an object of " + size);
            }
            return new ObjectTail(data, size);
        } catch (SdkException e) {
            if (notFound(e)) {
                throw new ObjectNotFoundException(key);
            }
            if (rangeNotSatisfiable(e)) {
                return ObjectStore.super.getTail(key, maxLength); // an empty object has no suffix to return
            }
            throw failure("suffix-ranged get", key, e);
        }
    }

    /**
     * The object size a {@code Content-Range} value ({@code bytes 100-199/200}) names; {@code returned} when there is
     * none (the whole object came back, as a 200); -1 when the size is unknown ({@code bytes 0-9/*}) or unreadable.
     */
    static long totalSize(String contentRange, int returned) {
        if (contentRange == null || contentRange.isBlank()) {
            return returned;
        }
        int slash = contentRange.lastIndexOf('/');
        if (slash < 0) {
            return -1;
        }
        try {
            return Long.parseLong(contentRange.substring(slash + 1).strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public long size(String key) throws IOException {
        String full = fullKey(key);
        try {
            return client.headObject(b -> b.bucket(config.bucket()).key(full)).contentLength();
        } catch (SdkException e) {
            if (notFound(e)) {
                throw new ObjectNotFoundException(key);
            }
            throw failure("head", key, e);
        }
    }

    @Override
    public boolean exists(String key) throws IOException {
        String full = fullKey(key);
        try {
            client.headObject(b -> b.bucket(config.bucket()).key(full));
            return true;
        } catch (SdkException e) {
            if (notFound(e)) {
                return false;
            }
            throw failure("head", key, e);
        }
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        ObjectKeys.validatePrefix(prefix);
        List<String> keys = new ArrayList<>();
        ListObjectsV2Request request =
                ListObjectsV2Request.builder().bucket(config.bucket()).prefix(config.prefix() + prefix)
                .maxKeys(listPageSize).build();
        try {
            for (S3Object object : client.listObjectsV2Paginator(request).contents()) {
                keys.add(object.key().substring(config.prefix().length()));
            }
        } catch (SdkException e) {
            throw failure("list", prefix, e);
        }
        Collections.sort(keys);
        return keys;
    }

    @Override
    public void delete(String key) throws IOException {
        String full = fullKey(key);
        try {
            client.deleteObject(b -> b.bucket(config.bucket()).key(full));
        } catch (NoSuchKeyException e) {
            // absent is fine: delete is idempotent
        } catch (SdkException e) {
            throw failure("delete", key, e);
        }
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return "S3ObjectStore[" + config + "]";
    }
}
