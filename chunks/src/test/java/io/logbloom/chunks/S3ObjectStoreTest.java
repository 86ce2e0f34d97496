package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The contract suite against a real S3 protocol server (s3proxy, in process, on loopback). */
final class S3ObjectStoreTest extends ObjectStoreContractTest {
    /** Small pages so the contract's listing of 150 keys needs ten of them. */
    private static final int LIST_PAGE_SIZE = 16;

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
        return new S3ObjectStore(server.config("test-" + (++storeCount) + "/"), LIST_PAGE_SIZE);
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
    void server_pagesListings_soTheContractExercisesPagination() throws Exception {
        try (S3ObjectStore store = new S3ObjectStore(server.config("paging/"), LIST_PAGE_SIZE);
                S3Client raw = S3Client.builder()
                        .httpClientBuilder(UrlConnectionHttpClient.builder())
                        .endpointOverride(server.endpoint())
                        .region(Region.of(S3TestServer.REGION))
                        .credentialsProvider(StaticCredentialsProvider.create(
                                AwsBasicCredentials.create(S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY)))
                        .forcePathStyle(true)
                        .build()) {
            for (int i = 0; i < LIST_PAGE_SIZE + 1; i++) {
                store.put("k" + i, new byte[] {1});
            }
            var firstPage = raw.listObjectsV2(b -> b.bucket(server.bucket()).prefix("paging/").maxKeys(LIST_PAGE_SIZE));
            assertThat(firstPage.isTruncated()).isTrue();
            assertThat(firstPage.contents()).hasSize(LIST_PAGE_SIZE);
            assertThat(store.list("")).hasSize(LIST_PAGE_SIZE + 1);
        }
    }

    @Test
    void totalSize_readFromContentRange() {
        assertThat(S3ObjectStore.totalSize("bytes 100-199/200", 100)).isEqualTo(200);
        assertThat(S3ObjectStore.totalSize("bytes 0-9/10", 10)).isEqualTo(10);
        assertThat(S3ObjectStore.totalSize(null, 42)).as("a 200 with the whole object").isEqualTo(42);
        assertThat(S3ObjectStore.totalSize("bytes 0-9/*", 10)).as("size unknown").isEqualTo(-1);
        assertThat(S3ObjectStore.totalSize("bytes 0-9", 10)).isEqualTo(-1);
        assertThat(S3ObjectStore.totalSize("bytes 0-9/ten", 10)).isEqualTo(-1);
    }

    @Test
    void listPageSize_outOfRange_rejected() {
        assertThatThrownBy(() -> new S3ObjectStore(server.config(), 0)).hasMessageContaining("list page size 0");
        assertThatThrownBy(() -> new S3ObjectStore(server.config(), 1001)).hasMessageContaining("1001");
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
            // fails fast: without the Expect-header fix this stalled for two 30 s socket timeouts
            long start = System.nanoTime();
            assertThatThrownBy(() -> store.put("k", new byte[] {1}))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("no-such-bucket");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(25));
        }
    }
}
