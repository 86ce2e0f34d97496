package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class ServiceNameDiscoveryTest {
    private final ServiceNameDiscovery discovery = new ServiceNameDiscovery(PushEnrichmentConfig.DEFAULT_SERVICE_NAME_LABELS);

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "{service_name=\"given\", app=\"x\"}|{service_name=\"given\", app=\"x\"}",
        "{service=\"svc\", app=\"x\"}|{service=\"svc\", app=\"x\", service_name=\"svc\"}",
        "{app=\"x\", job=\"j\"}|{app=\"x\", job=\"j\", service_name=\"x\"}",
        "{job=\"j\", application=\"ap\"}|{job=\"j\", application=\"ap\", service_name=\"ap\"}",
        "{app_name=\"an\", name=\"n\"}|{app_name=\"an\", name=\"n\", service_name=\"an\"}",
        "{name=\"n\", container=\"c\"}|{name=\"n\", container=\"c\", service_name=\"n\"}",
        "{app_kubernetes_io_name=\"k\", container=\"c\"}|{app_kubernetes_io_name=\"k\", container=\"c\", service_name=\"k\"}",
        "{container=\"c\", component=\"co\"}|{container=\"c\", component=\"co\", service_name=\"c\"}",
        "{container_name=\"cn\"}|{container_name=\"cn\", service_name=\"cn\"}",
        "{k8s_container_name=\"kc\"}|{k8s_container_name=\"kc\", service_name=\"kc\"}",
        "{component=\"co\", job=\"j\"}|{component=\"co\", job=\"j\", service_name=\"co\"}",
        "{workload=\"w\", job=\"j\"}|{workload=\"w\", job=\"j\", service_name=\"w\"}",
        "{job=\"ns/j\"}|{job=\"ns/j\", service_name=\"ns/j\"}",
        "{k8s_job_name=\"kj\"}|{k8s_job_name=\"kj\", service_name=\"kj\"}",
        "{env=\"dev\"}|{env=\"dev\", service_name=\"unknown_service\"}",
        "{app=\"\", env=\"dev\"}|{app=\"\", env=\"dev\", service_name=\"unknown_service\"}",
        "{app=\"q\\\"uote\"}|{app=\"q\\\"uote\", service_name=\"q\\\"uote\"}",
        "not a selector|not a selector",
        "{}|{}",
    })
    void discover_perRule(String labels, String expected) {
        assertThat(discovery.discover(labels)).isEqualTo(expected);
    }
}
