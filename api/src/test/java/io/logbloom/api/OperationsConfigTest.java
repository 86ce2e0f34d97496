package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.compactor.CompactorConfig;
import io.logbloom.compactor.DeletionMode;
import io.logbloom.compactor.RetentionLimits;
import io.logbloom.compactor.StreamRetention;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

final class OperationsConfigTest {
    private static final String FULL = """
            compactor:
              working_directory: /tmp/compactor
              compaction_interval: 5m
              retention_enabled: true
              retention_delete_delay: 30m
              delete_request_cancel_period: 12h
              delete_request_store: filesystem
              small_object_size: 4MB
            limits:
              retention_period: 744h
              deletion_mode: filter-only
              retention_stream:
                - selector: '{namespace="dev"}'
                  priority: 1
                  period: 24h
            overrides:
              tenant-a:
                retention_period: 168h
              tenant-b:
                deletion_mode: disabled
                retention_stream: []
            """;

    @Test
    void defaults_areLokis() {
        OperationsConfig ops = LogbloomConfig.defaults().operations();
        assertThat(ops).isEqualTo(OperationsConfig.defaults());
        assertThat(ops.compactor()).isEqualTo(new CompactorConfig(Duration.ofMinutes(10), false, Duration.ofHours(2),
                Duration.ofHours(24)));
        assertThat(ops.retention().defaults()).isEqualTo(RetentionLimits.defaults());
        assertThat(ops.retention().defaults().deletionMode()).isEqualTo(DeletionMode.FILTER_AND_DELETE);
        assertThat(ops.retention().defaults().retentionPeriod()).isZero();
    }

    @Test
    void everyKey_mapped_overridesInheritUnsetKeys_andRoundTripThroughToYaml() {
        LogbloomConfig config = LogbloomConfig.parse(FULL, Map.of());
        OperationsConfig ops = config.operations();
        assertThat(ops.compactor()).isEqualTo(new CompactorConfig(Duration.ofMinutes(5), true, Duration.ofMinutes(30),
                Duration.ofHours(12), 4L << 20));
        assertThat(ops.workingDirectory()).isEqualTo("/tmp/compactor");
        assertThat(ops.deleteRequestStore()).isEqualTo("filesystem");
        StreamRetention dev = new StreamRetention("{namespace=\"dev\"}", Duration.ofHours(24), 1);
        RetentionLimits global = new RetentionLimits(Duration.ofDays(31), List.of(dev), DeletionMode.FILTER_ONLY);
        assertThat(ops.retention().defaults()).isEqualTo(global);
        assertThat(ops.retention().forTenant("tenant-a"))
                .isEqualTo(new RetentionLimits(Duration.ofDays(7), List.of(dev), DeletionMode.FILTER_ONLY));
        assertThat(ops.retention().forTenant("tenant-b"))
                .isEqualTo(new RetentionLimits(Duration.ofDays(31), List.of(), DeletionMode.DISABLED));
        assertThat(ops.retention().forTenant("other")).isEqualTo(global);

        assertThat(LogbloomConfig.parse(config.toYaml(), Map.of())).isEqualTo(config);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "compactor: { compaction_interval: 0s }|compaction_interval must be positive",
        "compactor: { compaction_interval: soon }|compactor.compaction_interval",
        "compactor: { retention_enabled: maybe }|compactor.retention_enabled",
        "compactor: { delete_request_cancel_period: -1h }|compactor.delete_request_cancel_period",
        "compactor: { delete_request_store: s3 }|compactor.delete_request_store",
        "compactor: { small_object_size: lots }|compactor.small_object_size",
        "compactor: { unknown_key: 1 }|compactor.unknown_key",
        "limits: { retention_period: 1h }|retention_period must be at least 24h",
        "limits: { deletion_mode: sometimes }|deletion_mode",
        "limits: { retention_stream: [ { selector: '{a=', period: 24h } ] }|limits.retention_stream[0]",
        "limits: { retention_stream: [ { selector: '{a=\"b\"}', period: 1h } ] }|limits.retention_stream[0]",
        "limits: { retention_stream: [ { selector: '{a=\"b\"}', period: 24h, weight: 2 } ] }|limits.retention_stream[0].weight",
        "overrides: { t: { max_line_size: 10 } }|overrides.t.max_line_size",
        "overrides: { t: { retention_period: 2h } }|overrides.t.retention_period must be at least 24h",
        "overrides: { 'a/b': { retention_period: 48h } }|overrides.a/b",
    })
    void invalidValues_startupErrorNamesTheKey(String yaml, String expected) {
        assertThatThrownBy(() -> LogbloomConfig.parse(yaml, Map.of())).isInstanceOf(ConfigException.class)
                .hasMessageContaining(expected);
    }
}
