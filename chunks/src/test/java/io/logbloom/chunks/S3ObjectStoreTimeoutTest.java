package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link S3Config#responseHeaderTimeout()}: against a store that takes requests and never answers (a socket on
 * loopback that reads and says nothing), every operation fails with an error naming it once the timeout (and the
 * client's retries) are spent, instead of waiting the client's default 30 s per attempt. The deadline of each call is
 * generous for the 300 ms set here and shorter than one attempt at the default.
 */
final class S3ObjectStoreTimeoutTest {
    private static final Duration DEADLINE = Duration.ofSeconds(25);

    private ServerSocket silent;
    private final List<Socket> held = new CopyOnWriteArrayList<>();
    private S3ObjectStore store;

    @BeforeEach
    void startSilentStore() throws IOException {
        silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!silent.isClosed()) {
                try {
                    Socket socket = silent.accept();
                    held.add(socket);
                    Thread reader = new Thread(() -> drain(socket), "silent-store-reader");
                    reader.setDaemon(true);
                    reader.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "silent-store");
        acceptor.setDaemon(true);
        acceptor.start();
        store = new S3ObjectStore(new S3Config(URI.create("http://127.0.0.1:" + silent.getLocalPort()), "bucket",
                "us-east-1", "access", "secret", true, "", Duration.ofMillis(300)));
    }

    /** Reads whatever the client sends, so its request is written whole, and answers nothing. */
    private static void drain(Socket socket) {
        byte[] buffer = new byte[8192];
        try (InputStream in = socket.getInputStream()) {
            while (in.read(buffer) >= 0) {
                // a store that never answers
            }
        } catch (IOException closed) {
            // the test is over
        }
    }

    @AfterEach
    void stop() throws IOException {
        store.close();
        silent.close();
        for (Socket socket : held) {
            socket.close();
        }
    }

    @Test
    void put_toAStoreThatNeverAnswers_failsWithinTheTimeout() {
        assertTimeoutPreemptively(DEADLINE, () -> assertThatThrownBy(() -> store.put("a/key", new byte[100]))
                .isInstanceOf(IOException.class).hasMessageContaining("S3 put of 'a/key' in bucket 'bucket' failed"));
        assertThat(held).as("the client reached the silent store").isNotEmpty();
    }

    @Test
    void get_fromAStoreThatNeverAnswers_failsWithinTheTimeout() {
        assertTimeoutPreemptively(DEADLINE, () -> assertThatThrownBy(() -> store.get("a/key"))
                .isInstanceOf(IOException.class).hasMessageContaining("S3 get of 'a/key' in bucket 'bucket' failed"));
    }

    @Test
    void negativeTimeout_refused() {
        assertThatThrownBy(() -> new S3Config(URI.create("http://127.0.0.1:1"), "b", "r", null, null, true, "",
                Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("S3 response header timeout PT-1S is negative");
    }
}
