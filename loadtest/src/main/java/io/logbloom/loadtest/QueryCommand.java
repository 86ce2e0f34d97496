package io.logbloom.loadtest;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code query}: sends the query mix against what a {@code push} run wrote (read from its
 * manifest) and checks every needle query returns exactly its line and every count query the push's tally.
 *
 * <p>Not thread-safe: picocli calls it once.
 */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = "Query what 'push' wrote (needle by trace_id, rare substring, label filter, rate, quantile) "
                + "and check needles return exactly their line; with 'count', line counts against the push's tallies.")
final class QueryCommand implements Callable<Integer> {
    private final Environment environment;
    @Mixin
    CommonOptions common = new CommonOptions();
    @Option(names = "--limit", defaultValue = "100", description = "limit parameter of log queries (default: ${DEFAULT-VALUE}).")
    int limit;
    @Option(names = "--query-kinds", split = ",", defaultValue = QueryMix.DEFAULT_KINDS,
            description = "Query kinds to send, keeping their shares needle 50, substring 15, labels 15, rate 10, quantile 10, "
                    + "count 10 (count: the push's --count-lines-containing tallies, checked) (default: ${DEFAULT-VALUE}).")
    java.util.List<String> queryKinds;

    QueryCommand(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Integer call() throws InterruptedException {
        Manifest manifest = Manifest.read(common.manifest);
        LokiClient client = new LokiClient(URI.create(common.url), common.tenant, common.timeout);
        RunStats stats = new RunStats(System.nanoTime());
        RunControl control = new RunControl();
        ResponsivenessWatch watch = new ResponsivenessWatch(common.giveUpAfter, System::nanoTime);
        QueryMix mix = new QueryMix(manifest.runId(), NeedleReservoir.of(manifest), QueryMix.fixed(manifest), limit, queryKinds,
                manifest.linesContaining());
        QueryRunner runner = new QueryRunner(mix, common.connections, common.rate, common.seed, client, stats, control, watch);
        RunSession session = new RunSession(environment, stats, control, watch, common.url, common.duration);
        CountDownLatch finished = new CountDownLatch(1);
        try {
            RunSession.Timing timing = session.run(List.of(workload(runner)), finished);
            Map<String, Object> settings = common.settings();
            settings.put("limit", limit);
            settings.put("queryKinds", String.join(",", queryKinds));
            settings.put("manifest", common.manifest.toString());
            return ReportOutput.emit(environment, common, ReportBuilder.build("query", manifest.runId(), common.url,
                    timing.startedAt(), timing.durationSeconds(), control.stopReason(), settings, stats,
                    new RunReport.ClientReport(RunStats.round(timing.cpuSeconds()),
                            RunStats.round(timing.cpuSeconds() / Math.max(1e-9, timing.durationSeconds())),
                            Runtime.getRuntime().availableProcessors(), 0, 0)));
        } finally {
            finished.countDown();
        }
    }

    static RunSession.Workload workload(QueryRunner runner) {
        return new RunSession.Workload() {
            @Override
            public void prepare() {
                // Queries are built on the fly from the manifest; nothing to prepare.
            }

            @Override
            public void start() {
                runner.start();
            }

            @Override
            public void awaitStopped() throws InterruptedException {
                runner.awaitStopped();
            }
        };
    }
}
