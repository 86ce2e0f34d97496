package io.logbloom.loadtest;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * Options every run command shares: where the server is, how long and how hard to run, and where
 * reports go.
 *
 * <p>Not thread-safe: filled by picocli on the main thread, read-only afterwards.
 */
final class CommonOptions {
    @Option(names = "--url", defaultValue = "http://127.0.0.1:3100",
            description = "Base URL of the Loki-compatible server (default: ${DEFAULT-VALUE}).")
    String url;

    @Option(names = "--tenant", description = "Tenant sent as the X-Scope-OrgID header (default: none).")
    String tenant;

    @Option(names = "--duration", defaultValue = "30s", converter = DurationConverter.class,
            description = "Length of the timed phase, for example 30s, 5m (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--connections", defaultValue = "4",
            description = "Concurrent connections: push senders, or query workers for 'query' (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--rate", defaultValue = "0",
            description = "Target rate: lines/s for push and mixed, queries/s for query; 0 = flat out / closed loop (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--timeout", defaultValue = "10s", converter = DurationConverter.class,
            description = "Timeout of one request (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--give-up-after", defaultValue = "15s", converter = DurationConverter.class,
            description = "End the run when the server has not answered at all for this long (default: ${DEFAULT-VALUE}).")
    Duration giveUpAfter;

    @Option(names = "--seed", defaultValue = "42", description = "Seed of all random choices (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--manifest", defaultValue = "loadtest-manifest.json",
            description = "File where push writes what it pushed and query reads it (default: ${DEFAULT-VALUE}).")
    Path manifest;

    @Option(names = "--report", paramLabel = "FILE", description = "Also write the JSON report to FILE.")
    Path report;

    @Option(names = "--html", paramLabel = "FILE", description = "Write a self-contained HTML report with plots to FILE.")
    Path html;

    /** Returns the options as report settings. */
    Map<String, Object> settings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("url", url);
        settings.put("tenant", tenant == null ? "" : tenant);
        settings.put("durationSeconds", duration.toMillis() / 1000.0);
        settings.put("connections", connections);
        settings.put("rate", rate);
        settings.put("timeoutSeconds", timeout.toMillis() / 1000.0);
        settings.put("seed", seed);
        return settings;
    }
}
