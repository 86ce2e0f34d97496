package io.logbloom.chunks;

import java.net.URI;
import java.util.Properties;
import java.util.UUID;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;

/**
 * A real S3 protocol server for tests: s3proxy over jclouds' in-memory "transient" blob store, in
 * process, on 127.0.0.1 and a free port, with AWS v4 signatures checked against fixed credentials and
 * one bucket created. Exported in the chunks test-jar so other modules' tests reuse it:
 *
 * <pre>{@code
 * try (S3TestServer s3 = S3TestServer.start()) {
 *     ObjectStore store = new S3ObjectStore(s3.config());
 * }
 * }</pre>
 *
 * {@link #stop()} and {@link #restart()} take the server off the network and back on the same port
 * with the same objects, as an object store outage looks to a client.
 *
 * <p>Thread-safe once started (s3proxy serves requests concurrently); {@code stop}, {@code restart}
 * and {@code close} are called from one test thread.
 */
public final class S3TestServer implements AutoCloseable {
    /** The access key the server accepts. */
    public static final String ACCESS_KEY = "logbloom-test-access";
    /** The secret key the server accepts. */
    public static final String SECRET_KEY = "logbloom-test-secret";
    /** The region clients sign for. */
    public static final String REGION = "us-east-1";
    /** How long to wait for Jetty to start before giving up. */
    private static final long START_TIMEOUT_MILLIS = 30_000;

    private S3Proxy proxy;
    private final BlobStoreContext context;
    private final URI endpoint;
    private final String bucket;

    private S3TestServer(S3Proxy proxy, BlobStoreContext context, URI endpoint, String bucket) {
        this.proxy = proxy;
        this.context = context;
        this.endpoint = endpoint;
        this.bucket = bucket;
    }

    /** Starts a server with a fresh, empty bucket. */
    public static S3TestServer start() throws Exception {
        Properties properties = new Properties();
        BlobStoreContext context = ContextBuilder.newBuilder("transient")
                .credentials(ACCESS_KEY, SECRET_KEY)
                .overrides(properties)
                .build(BlobStoreContext.class);
        S3Proxy proxy;
        try {
            proxy = startProxy(context, URI.create("http://127.0.0.1:0"));
        } catch (Exception | Error e) {
            context.close();
            throw e;
        }
        try {
            String bucket = "logbloom-" + UUID.randomUUID().toString().substring(0, 8);
            context.getBlobStore().createContainerInLocation(null, bucket);
            return new S3TestServer(proxy, context, URI.create("http://127.0.0.1:" + proxy.getPort()), bucket);
        } catch (Exception | Error e) {
            proxy.stop();
            context.close();
            throw e;
        }
    }

    private static S3Proxy startProxy(BlobStoreContext context, URI endpoint) throws Exception {
        S3Proxy proxy = S3Proxy.builder()
                .blobStore(context.getBlobStore())
                .endpoint(endpoint)
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
                .jettyMaxThreads(16)
                .build();
        try {
            proxy.start();
            long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
            while (!AbstractLifeCycle.STARTED.equals(proxy.getState())) {
                if (System.currentTimeMillis() > deadline || AbstractLifeCycle.FAILED.equals(proxy.getState())) {
                    throw new IllegalStateException("s3proxy did not start on " + endpoint + " within "
                            + START_TIMEOUT_MILLIS + " ms: " + proxy.getState());
                }
                Thread.sleep(10);
            }
            return proxy;
        } catch (Exception | Error e) {
            proxy.stop();
            throw e;
        }
    }

    /** Stops serving (clients get connection refused); the objects stay for {@link #restart()}. */
    public void stop() throws Exception {
        proxy.stop();
    }

    /** Serves again on the same port with the same objects, after {@link #stop()}. */
    public void restart() throws Exception {
        proxy = startProxy(context, endpoint);
    }

    /** The server's URI, e.g. {@code http://127.0.0.1:40123}. */
    public URI endpoint() {
        return endpoint;
    }

    /** The bucket created for this server. */
    public String bucket() {
        return bucket;
    }

    /** A store configuration for this server (path-style, static credentials, no key prefix). */
    public S3Config config() {
        return config("");
    }

    /** A store configuration for this server with a key prefix (ending in '/'). */
    public S3Config config(String prefix) {
        return new S3Config(endpoint, bucket, REGION, ACCESS_KEY, SECRET_KEY, true, prefix);
    }

    /** Stops the server; its data is gone. */
    @Override
    public void close() {
        try {
            proxy.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping s3proxy on " + endpoint, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop s3proxy on " + endpoint, e);
        } finally {
            context.close();
        }
    }
}
