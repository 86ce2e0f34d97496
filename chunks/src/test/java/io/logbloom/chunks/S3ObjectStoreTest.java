package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The contract suite against a real S3 protocol server (s3proxy, in process, on loopback). */
final class S3ObjectStoreTest extends ObjectStoreContractTest {
    private static S3TestServer server;
    private static int storeCount;

    @BeforeAll
    static void startServer() throws Exception {
        server = S3TestServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Override
    protected ObjectStore createStore() {
        // a fresh key prefix per test gives each test an empty store in the shared bucket
        return new S3ObjectStore(server.config("test-" + (++storeCount) + "/"));
    }

    @Test
    void prefix_isolatesStores() throws Exception {
        try (ObjectStore one = new S3ObjectStore(server.config("iso-1/"));
                ObjectStore two = new S3ObjectStore(server.config("iso-2/"))) {
            one.put("k", new byte[] {1});
            assertThat(two.exists("k")).isFalse();
            assertThat(one.list("")).containsExactly("k");
            assertThat(two.list("")).isEmpty();
        }
    }

    @Test
    void wrongCredentials_failWithOperationAndKey() {
        S3Config config = server.config();
        S3Config wrong = new S3Config(config.endpoint(), config.bucket(), config.region(), config.accessKey(),
                "not-the-secret", true, "");
        try (S3ObjectStore store = new S3ObjectStore(wrong)) {
            assertThatThrownBy(() -> store.put("k", new byte[] {1}))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("S3 put of 'k'")
                    .hasMessageContaining(config.bucket());
        }
    }

    @Test
    void missingBucket_failsWithBucketName() {
        S3Config config = server.config();
        S3Config missing = new S3Config(config.endpoint(), "no-such-bucket", config.region(), config.accessKey(),
                config.secretKey(), true, "");
        try (S3ObjectStore store = new S3ObjectStore(missing)) {
            assertThatThrownBy(() -> store.put("k", new byte[] {1}))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("no-such-bucket");
        }
    }
}
