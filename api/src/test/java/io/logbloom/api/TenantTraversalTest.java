package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.S3TestServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tenant ids that try to leave their prefix ({@code ../}, {@code ..}, {@code /}, NUL, control
 * characters, very long ids, look-alike unicode dots and slashes, the names of the shared key
 * namespaces) sent raw in {@code X-Scope-OrgID} to push and query routes, on the filesystem store
 * and on S3 (s3proxy in process): every answer is below 500, and afterwards every object key and
 * every file lies under the prefix of a tenant that was accepted.
 */
final class TenantTraversalTest {
    /** Ids that must be refused (4xx). */
    private static final List<String> HOSTILE = List.of("..", "../", "../../etc/passwd", "/", "/etc", "a/b", "a/../b",
            "a/../../b", "..\\", "a\\b", "C:\\x", "\u0000", "a\u0000b", "fake\u0000/../x", "\u0001", "a\u0007b", "\u007f",
            "\t..", "%2e%2e", "%2f", "a%2Fb", "\u2024\u2024", "\uff0e\uff0e", "\u2215etc", "\uff0f", "\u202e..",
            "a".repeat(151), "a".repeat(4000), ".", "index", "blooms", "compactor", "\u00e9", "a b", "a:b", "a?b", "a#b", "a\"b");
    /** Odd but valid ids (Loki accepts them): pushed with 204, each must stay in its own prefix. */
    private static final List<String> ODD_BUT_VALID = List.of("...", ".a", "a.", "(x)", "*", "!", "'", "_-_", "a..b",
            "a".repeat(150));

    @TempDir
    Path root;

    @Test
    void hostileTenantIds_filesystemStore_nothingOutsideTenantPrefixes() throws Exception {
        Path dataDir = root.resolve("data");
        try (TestServer server = TestServer.start(dataDir)) {
            sendAll(server);
            assertKeysWithinTenants(server.server.objectStore().list(""));
        }
        try (Stream<Path> top = Files.list(root)) {
            assertThat(top.map(p -> p.getFileName().toString())).containsExactly("data");
        }
        try (Stream<Path> top = Files.list(dataDir)) {
            assertThat(top.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("objects", "tmp", "wal");
        }
        Path objects = dataDir.resolve("objects");
        List<String> files;
        try (Stream<Path> walk = Files.walk(objects)) {
            files = walk.filter(Files::isRegularFile).map(p -> objects.relativize(p).toString().replace('\\', '/'))
                    .collect(Collectors.toList());
        }
        assertKeysWithinTenants(files);
    }

    @Test
    void hostileTenantIds_s3Store_nothingOutsideTenantPrefixes() throws Exception {
        try (S3TestServer s3 = S3TestServer.start()) {
            String yaml = "storage:\n  backend: s3\n  s3:\n    endpoint: \"" + s3.endpoint() + "\"\n    bucket: "
                    + s3.bucket() + "\n    region: " + S3TestServer.REGION + "\n    access_key_id: "
                    + S3TestServer.ACCESS_KEY + "\n    secret_access_key: " + S3TestServer.SECRET_KEY + "\n";
            try (TestServer server = TestServer.start(root.resolve("data"), yaml)) {
                sendAll(server);
                assertKeysWithinTenants(server.server.objectStore().list(""));
            }
        }
    }

    private static void sendAll(TestServer server) throws IOException, InterruptedException {
        long ts = TestServer.nowNanos();
        try (RawHttpConnection http = new RawHttpConnection(server.server.port())) {
            for (String tenant : HOSTILE) {
                RawHttpConnection.Response push = push(http, tenant, ts);
                assertThat(push.status()).as("push as tenant %s: %s", printable(tenant), push.body()).isBetween(400, 499);
                for (String path : List.of("/loki/api/v1/query_range?query=%7Bapp%3D%22t%22%7D",
                        "/loki/api/v1/labels", "/loki/api/v1/series?match[]=%7Bapp%3D%22t%22%7D")) {
                    RawHttpConnection.Response query = http.send("GET", path, List.<String[]>of(header(tenant)), new byte[0]);
                    assertThat(query.status()).as("GET %s as tenant %s: %s", path, printable(tenant), query.body())
                            .isBetween(400, 499);
                }
            }
            for (String tenant : ODD_BUT_VALID) {
                RawHttpConnection.Response push = push(http, tenant, ts);
                assertThat(push.status()).as("push as tenant %s: %s", tenant, push.body()).isEqualTo(204);
            }
        }
        assertThat(server.flush().statusCode()).isEqualTo(204);
        for (String tenant : ODD_BUT_VALID) {
            var answer = server.send(server.request("/loki/api/v1/query_range?query=%7Bapp%3D%22t%22%7D&start=" + (ts - 1)
                    + "&end=" + (ts + 1)).header(TenantResolver.HEADER, tenant).GET());
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).contains("line of " + tenant.substring(0, Math.min(10, tenant.length())));
        }
    }

    private static RawHttpConnection.Response push(RawHttpConnection http, String tenant, long ts) throws IOException {
        String json = "{\"streams\":[{\"stream\":{\"app\":\"t\"},\"values\":[[\"" + ts + "\",\"line of "
                + tenant.substring(0, Math.min(10, tenant.length())).replace("\\", "\\\\").replace("\"", "\\\"")
                        .replace("\u0000", "\\u0000") + "\"]]}]}";
        List<String[]> headers = new ArrayList<>();
        headers.add(header(tenant));
        headers.add(new String[] {"Content-Type", "application/json"});
        return http.send("POST", "/loki/api/v1/push", headers, json.getBytes(StandardCharsets.UTF_8));
    }

    /** The header with {@code tenant}'s UTF-8 bytes, sent as they are. */
    private static String[] header(String tenant) {
        return new String[] {TenantResolver.HEADER,
                new String(tenant.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1)};
    }

    /**
     * Chunks live under {@code <tenant>/}, index files under {@code index/<tenant>/}, blooms under
     * {@code blooms/<tenant>/}; the compactor's lease (held during a pass) is its only key outside a tenant.
     */
    private static void assertKeysWithinTenants(List<String> keys) {
        Set<String> accepted = Set.copyOf(ODD_BUT_VALID);
        assertThat(keys).isNotEmpty().allSatisfy(key -> {
            if (key.equals("compactor/lease.json")) {
                return;
            }
            String[] segments = key.split("/", -1);
            String tenant = segments[0].equals("index") || segments[0].equals("blooms")
                    ? segments[1] : segments[0].equals("compactor") ? segments[2] : segments[0];
            assertThat(tenant).as("tenant of key %s", key).isIn(accepted);
            assertThat(segments).as("segments of key %s", key).doesNotContain("", ".", "..");
        });
        assertThat(keys.stream().filter(k -> !k.equals("compactor/lease.json")).map(k -> k.split("/")[0])
                .collect(Collectors.toSet()))
                .containsAll(Set.of("index", "blooms", "..."));
    }

    private static String printable(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.substring(0, Math.min(s.length(), 40)).toCharArray()) {
            sb.append(c < 0x20 || c >= 0x7F ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return sb.toString();
    }
}
