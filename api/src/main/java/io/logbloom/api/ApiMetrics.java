package io.logbloom.api;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * Metrics of the HTTP edge: requests by route and status, failed requests by route and the
 * {@link HttpErrors} reason, and request latency by route. Thread-safe (the metric objects are).
 */
final class ApiMetrics {
    private final Counter requests;
    private final Counter errors;
    private final Histogram duration;

    ApiMetrics(PrometheusRegistry registry) {
        requests = Counter.builder().name("logbloom_api_requests_total")
                .help("HTTP requests by matched route and status code").labelNames("route", "status")
                .register(registry);
        errors = Counter.builder().name("logbloom_api_request_errors_total")
                .help("HTTP requests answered with an error, by route and reason").labelNames("route", "reason")
                .register(registry);
        duration = Histogram.builder().name("logbloom_api_request_duration_seconds")
                .help("HTTP request latency by matched route").labelNames("route").register(registry);
    }

    void request(String route, int status, double seconds) {
        requests.labelValues(route, Integer.toString(status)).inc();
        duration.labelValues(route).observe(seconds);
    }

    void error(String route, String reason) {
        errors.labelValues(route, reason).inc();
    }
}
