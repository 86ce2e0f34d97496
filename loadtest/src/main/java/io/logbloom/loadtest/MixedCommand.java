package io.logbloom.loadtest;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mixed}: pushes and queries at the same time, the shape of a real day; needle queries
 * look up lines the server has already acknowledged in this run.
 *
 * <p>Not thread-safe: picocli calls it once.
 */
@Command(name = "mixed", mixinStandardHelpOptions = true,
        description = "Push and query at once; needles are lines already acknowledged in this run.")
final class MixedCommand implements Callable<Integer> {
    private final Environment environment;
    @Mixin
    CommonOptions common = new CommonOptions();
    @Mixin
    PushOptions push = new PushOptions();
    @Option(names = "--query-connections", defaultValue = "2", description = "Concurrent query workers (default: ${DEFAULT-VALUE}).")
    int queryConnections;
    @Option(names = "--query-rate", defaultValue = "0", description = "Queries per second, 0 = closed loop (default: ${DEFAULT-VALUE}).")
    double queryRate;
    @Option(names = "--limit", defaultValue = "100", description = "limit parameter of log queries (default: ${DEFAULT-VALUE}).")
    int limit;
    @Option(names = "--query-kinds", split = ",", defaultValue = QueryMix.DEFAULT_KINDS,
            description = "Query kinds to send, keeping their shares needle 50, substring 15, labels 15, rate 10, quantile 10, "
                    + "count 10 (count: the push's --count-lines-containing tallies, checked) (default: ${DEFAULT-VALUE}).")
    java.util.List<String> queryKinds;

    MixedCommand(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Integer call() throws InterruptedException {
        PushCommand.PushRun run = PushCommand.PushRun.create(environment, common, push);
        QueryMix mix = new QueryMix(run.config().runId(), run.reservoir(),
                QueryMix.growing(environment.epochNanos(), environment::epochNanos), limit, queryKinds, Map.of());
        QueryRunner queries = new QueryRunner(mix, queryConnections, queryRate, common.seed, run.lokiClient(), run.stats(),
                run.control(), run.watch());
        CountDownLatch finished = new CountDownLatch(1);
        try {
            RunSession.Timing timing = run.session().run(List.of(run.workload(), QueryCommand.workload(queries)), finished);
            run.writeManifest(environment, common);
            Map<String, Object> settings = common.settings();
            push.addTo(settings);
            settings.put("runId", run.config().runId());
            settings.put("queryConnections", queryConnections);
            settings.put("queryRate", queryRate);
            settings.put("limit", limit);
            settings.put("queryKinds", String.join(",", queryKinds));
            return ReportOutput.emit(environment, common, ReportBuilder.build("mixed", run.config().runId(), common.url,
                    timing.startedAt(), timing.durationSeconds(), run.control().stopReason(), settings, run.stats(),
                    run.client(timing)));
        } finally {
            finished.countDown();
        }
    }
}
