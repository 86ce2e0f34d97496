package io.logbloom.ingest;

import java.util.List;
import java.util.Objects;

/**
 * Loki 3's ingest defaults that enrich a push before it is stored (YAML section {@code limits}):
 * service-name discovery ({@code discover_service_name}: the labels tried in order; empty turns it
 * off), log-level detection ({@code discover_log_levels}, reading {@code log_level_fields}) and the
 * OTLP mapping ({@code otlp_config}). Immutable.
 *
 * @param discoverServiceName labels whose value becomes {@code service_name}, first present wins; empty = off
 * @param discoverLogLevels whether entries get structured metadata {@code detected_level}
 * @param logLevelFields label, metadata, JSON and logfmt field names that carry a level
 * @param otlp how OTLP resource, scope and log attributes map onto labels and metadata
 */
public record PushEnrichmentConfig(List<String> discoverServiceName, boolean discoverLogLevels,
        List<String> logLevelFields, OtlpConfig otlp) {

    /** Loki's default {@code discover_service_name} list (pkg/validation/limits.go). */
    public static final List<String> DEFAULT_SERVICE_NAME_LABELS = List.of("service", "app", "application", "app_name",
            "name", "app_kubernetes_io_name", "container", "container_name", "k8s_container_name", "component",
            "workload", "job", "k8s_job_name");

    /** Loki's default {@code log_level_fields}: the fields its level detector reads. */
    public static final List<String> DEFAULT_LOG_LEVEL_FIELDS = List.of("level", "LEVEL", "Level", "severity",
            "SEVERITY", "Severity", "lvl", "LVL", "Lvl");

    public PushEnrichmentConfig {
        discoverServiceName = List.copyOf(discoverServiceName);
        logLevelFields = List.copyOf(logLevelFields);
        Objects.requireNonNull(otlp, "otlp is null");
    }

    /** Loki's defaults: discovery on with its label list, level detection on, Loki's default OTLP mapping. */
    public static PushEnrichmentConfig defaults() {
        return new PushEnrichmentConfig(DEFAULT_SERVICE_NAME_LABELS, true, DEFAULT_LOG_LEVEL_FIELDS,
                OtlpConfig.defaults());
    }
}
