package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

final class RequestBodiesTest {
    private final RequestBodies bodies = new RequestBodies(1000);

    @Test
    void read_identity_returnsBody() throws IOException {
        byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
        assertThat(bodies.read(new ByteArrayInputStream(body), null, body.length)).isEqualTo(body);
        assertThat(bodies.read(new ByteArrayInputStream(body), "identity", -1)).isEqualTo(body);
    }

    @Test
    void read_declaredLength_shorterOrLongerStreams_returnWhatCameWithinTheBound() throws IOException {
        byte[] body = new byte[600];
        Arrays.fill(body, (byte) 'x');
        // the stream ends early: what came, for the decoder to reject
        assertThat(bodies.read(new ByteArrayInputStream(body, 0, 100), null, 600)).hasSize(100);
        // more than declared (a server would not deliver it): still read, still bounded
        assertThat(bodies.read(new ByteArrayInputStream(body), null, 400)).isEqualTo(body);
        assertThatThrownBy(() -> bodies.read(new ByteArrayInputStream(new byte[1500]), null, 400))
                .isInstanceOfSatisfying(HttpException.class, e -> assertThat(e.status()).isEqualTo(413));
        byte[] compressed = gzip(body);
        assertThat(bodies.read(new ByteArrayInputStream(compressed), "gzip", compressed.length)).isEqualTo(body);
        assertThat(bodies.read(new ByteArrayInputStream(new byte[0]), null, 0)).isEmpty();
    }

    @Test
    void read_gzip_inflated() throws IOException {
        byte[] body = "a gzipped push body".getBytes(StandardCharsets.UTF_8);
        assertThat(bodies.read(new ByteArrayInputStream(gzip(body)), "gzip", -1)).isEqualTo(body);
    }

    @Test
    void read_declaredLengthOverLimit_413BeforeReading() {
        assertThatThrownBy(() -> bodies.read(new ByteArrayInputStream(new byte[0]), null, 1001))
                .isInstanceOfSatisfying(HttpException.class, e -> assertThat(e.status()).isEqualTo(413))
                .hasMessage("request body of 1001 bytes is larger than the limit of 1000 bytes (server.max_recv_msg_size)");
    }

    @Test
    void read_chunkedBodyOverLimit_413() {
        assertThatThrownBy(() -> bodies.read(new ByteArrayInputStream(new byte[1001]), null, -1))
                .isInstanceOfSatisfying(HttpException.class, e -> assertThat(e.status()).isEqualTo(413));
        assertThat(catchStatus(new byte[1000], null)).isZero();
    }

    @Test
    void read_gzipBomb_stoppedAtLimit() throws IOException {
        byte[] bomb = gzip(new byte[10 << 20]);
        assertThat(bomb.length).isLessThan(1000 * 20);
        RequestBodies roomy = new RequestBodies(64 * 1024);
        assertThatThrownBy(() -> roomy.read(new ByteArrayInputStream(bomb), "gzip", bomb.length))
                .isInstanceOfSatisfying(HttpException.class, e -> assertThat(e.status()).isEqualTo(413))
                .hasMessageContaining("gzip-decompressed request body is larger than the limit of 65536 bytes");
    }

    @Test
    void read_corruptGzip_400() throws IOException {
        byte[] gz = gzip("some text that is long enough".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> bodies.read(new ByteArrayInputStream("not gzip".getBytes()), "gzip", -1))
                .isInstanceOfSatisfying(HttpException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessageStartingWith("malformed gzip request body: ");
        byte[] truncated = Arrays.copyOf(gz, gz.length - 6);
        assertThatThrownBy(() -> bodies.read(new ByteArrayInputStream(truncated), "gzip", -1))
                .isInstanceOfSatisfying(HttpException.class, e -> assertThat(e.status()).isEqualTo(400));
    }

    @Test
    void read_unknownEncoding_415() {
        assertThatThrownBy(() -> bodies.read(new ByteArrayInputStream(new byte[1]), "br", 1))
                .isInstanceOfSatisfying(HttpException.class, e -> assertThat(e.status()).isEqualTo(415))
                .hasMessage("unsupported Content-Encoding 'br': expected gzip or none");
    }

    private int catchStatus(byte[] body, String encoding) {
        try {
            bodies.read(new ByteArrayInputStream(body), encoding, -1);
            return 0;
        } catch (HttpException e) {
            return e.status();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }
}
