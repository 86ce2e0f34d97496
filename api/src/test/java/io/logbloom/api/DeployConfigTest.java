package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The config docker-compose mounts ({@code deploy/logbloom/config.yaml}) is accepted by the loader. */
final class DeployConfigTest {
    @Test
    void dockerComposeConfig_loads() {
        Path file = Path.of("..", "deploy", "logbloom", "config.yaml");
        LogbloomConfig config = LogbloomConfig.load(file,
                Map.of("S3_ACCESS_KEY", "minio-user", "S3_SECRET_KEY", "minio-secret"));
        assertThat(config.server().httpListenAddress()).isEqualTo("0.0.0.0");
        assertThat(config.server().httpListenPort()).isEqualTo(3100);
        assertThat(config.storage().backend()).isEqualTo(LogbloomConfig.Backend.S3);
        assertThat(config.storage().s3().accessKeyId()).isEqualTo("minio-user");
        assertThat(config.storage().s3().secretAccessKey()).isEqualTo("minio-secret");
        assertThat(ConfigMapping.s3Config(config.storage().s3()).endpoint()).hasHost("minio");
        assertThat(ConfigMapping.ingestConfig(config).wal().directory()).isEqualTo(Path.of("/wal"));
    }
}
