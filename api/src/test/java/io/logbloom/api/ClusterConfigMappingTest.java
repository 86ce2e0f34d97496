package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.ingest.LimitsConfig;
import io.logbloom.kafka.ClusterConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code target:}, {@code --target} and the {@code kafka:} section. */
final class ClusterConfigMappingTest {
    @Test
    void defaults_targetAllWithoutKafka() {
        LogbloomConfig c = LogbloomConfig.defaults();
        assertThat(c.cluster().target()).isEqualTo(LogbloomConfig.Target.ALL);
        assertThat(c.cluster().usesKafka()).isFalse();
        assertThat(c.cluster().kafka()).isEqualTo(ClusterConfig.defaults());
    }

    @Test
    void parse_everyKafkaKey_mapped_andRoundTripsThroughToYaml() {
        LogbloomConfig c = LogbloomConfig.parse("""
                target: ingester
                kafka: { bootstrap_servers: "k1:9092,k2:9092", topic: t, partitions: 32, replication_factor: 3,
                         members_topic: m, consumer_group: g, max_record_size: 2MB, commit_interval: 1m,
                         produce_timeout: 4s, announce_interval: 2s, session_timeout: 20s,
                         advertise_address: "ingester-1:3100", distributors: 3, read_consistency: eventual }
                """, Map.of());
        assertThat(c.cluster()).isEqualTo(new LogbloomConfig.Cluster(LogbloomConfig.Target.INGESTER,
                new ClusterConfig("k1:9092,k2:9092", "t", 32, (short) 3, "m", "g", 2 << 20, Duration.ofMinutes(1),
                        Duration.ofSeconds(4), Duration.ofSeconds(2), Duration.ofSeconds(20), "ingester-1:3100", 3,
                        ClusterConfig.EVENTUAL)));
        assertThat(LogbloomConfig.parse(c.toYaml(), Map.of())).isEqualTo(c);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "target: router|target: unknown target 'router' (expected all, distributor, ingester, querier or compactor)",
        "target: querier|kafka.bootstrap_servers must be set for target querier",
        "kafka: { partitions: 0 }|kafka.partitions must be at least 1: 0",
        "kafka: { read_consistency: maybe }|kafka.read_consistency must be strong or eventual: maybe",
        "kafka: { max_record_size: 1KB }|kafka.max_record_size must be at least 65536 bytes: 1024",
        "kafka: { commit_interval: 0s }|kafka.commit_interval must be positive",
        "kafka: { brokers: x }|kafka.brokers: unknown key"})
    void parse_badInput_namesKey(String yaml, String message) {
        assertThatThrownBy(() -> LogbloomConfig.parse(yaml, Map.of())).isInstanceOf(ConfigException.class)
                .hasMessageContaining(message);
    }

    @Test
    void targetFlag_winsOverFile_andIsValidated() {
        LogbloomConfig file = LogbloomConfig.parse("kafka: { bootstrap_servers: \"k:9092\" }", Map.of());
        assertThat(file.withOverrides(null, null, null, "Distributor").cluster().target())
                .isEqualTo(LogbloomConfig.Target.DISTRIBUTOR);
        assertThatThrownBy(() -> LogbloomConfig.defaults().withOverrides(null, null, Path.of("d"), "ingester"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("kafka.bootstrap_servers must be set");
        assertThatThrownBy(() -> file.withOverrides(null, null, null, "everything"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("--target: unknown target 'everything'");
    }

    @Test
    void dockerComposeClusterConfig_loadsForEveryRole() {
        Map<String, String> env = Map.of("S3_ACCESS_KEY", "u", "S3_SECRET_KEY", "s", "ADVERTISE_ADDRESS", "ingester-1:3100");
        LogbloomConfig c = LogbloomConfig.load(Path.of("..", "deploy", "logbloom", "cluster.yaml"), env);
        assertThat(c.cluster().kafka().bootstrapServers()).isEqualTo("kafka:9092");
        assertThat(c.cluster().kafka().advertiseAddress()).isEqualTo("ingester-1:3100");
        assertThat(c.storage().backend()).isEqualTo(LogbloomConfig.Backend.S3);
        for (String role : new String[] {"distributor", "ingester", "querier"}) {
            assertThat(c.withOverrides(null, null, null, role).cluster().target().label()).isEqualTo(role);
        }
    }

    @Test
    void distributorShare_dividesRateNotBurst() {
        LimitsConfig limits = LimitsConfig.defaults();
        LimitsConfig share = DistributorPushTarget.shareOf(limits, 4);
        assertThat(share.ingestionRateMb()).isEqualTo(limits.ingestionRateMb() / 4);
        assertThat(share.ingestionBurstSizeMb()).isEqualTo(limits.ingestionBurstSizeMb());
        assertThat(share).usingRecursiveComparison().ignoringFields("ingestionRateMb").isEqualTo(limits);
    }
}
