package io.logbloom.loadtest;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code push}: generates logs and pushes them for the planned duration, then writes the manifest
 * the {@code query} command reads and prints the report.
 *
 * <p>Not thread-safe: picocli calls it once.
 */
@Command(name = "push", mixinStandardHelpOptions = true,
        description = "Generate realistic logs and push them to /loki/api/v1/push; writes the manifest for 'query'.")
final class PushCommand implements Callable<Integer> {
    /** Needles kept for the query phase: enough variety, small manifest. */
    static final int NEEDLE_SAMPLE = 1_000;

    private final Environment environment;
    @Mixin
    CommonOptions common = new CommonOptions();
    @Mixin
    PushOptions push = new PushOptions();

    PushCommand(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Integer call() throws InterruptedException {
        PushRun run = PushRun.create(environment, common, push);
        CountDownLatch finished = new CountDownLatch(1);
        try {
            RunSession.Timing timing = run.session().run(List.of(run.workload()), finished);
            run.writeManifest(environment, common);
            Map<String, Object> settings = common.settings();
            push.addTo(settings);
            settings.put("runId", run.config().runId());
            return ReportOutput.emit(environment, common, ReportBuilder.build("push", run.config().runId(),
                    common.url, timing.startedAt(), timing.durationSeconds(), run.control().stopReason(), settings,
                    run.stats(), run.client(timing)));
        } finally {
            finished.countDown();
        }
    }

    /** The wiring of a push run, shared with {@code mixed}. */
    record PushRun(GeneratorConfig config, PushRunner runner, RunStats stats, RunControl control,
            ResponsivenessWatch watch, NeedleReservoir reservoir, LineTally tally, LokiClient lokiClient,
            RunSession session) {
        static PushRun create(Environment environment, CommonOptions common, PushOptions push) {
            GeneratorConfig config = new GeneratorConfig(common.seed, push.runId(environment.clock()), push.streams,
                    push.batchSize, push.userIds, push.medianLineLength);
            LokiClient client = new LokiClient(URI.create(common.url), common.tenant, common.timeout);
            RunStats stats = new RunStats(System.nanoTime());
            RunControl control = new RunControl();
            ResponsivenessWatch watch = new ResponsivenessWatch(common.giveUpAfter, System::nanoTime);
            NeedleReservoir reservoir = new NeedleReservoir(NEEDLE_SAMPLE, common.seed);
            LineTally tally = new LineTally(push.countedTexts);
            PushRunner runner = new PushRunner(new LogGenerator(config),
                    new PushSettings(common.connections, common.rate, push.producerCount(), push.encoding,
                            push.maxLines, push.pregenerate, push.retryPolicy()),
                    client, stats, control, watch, reservoir, tally, environment.clock());
            RunSession session = new RunSession(environment, stats, control, watch, common.url, common.duration);
            return new PushRun(config, runner, stats, control, watch, reservoir, tally, client, session);
        }

        RunSession.Workload workload() {
            return new RunSession.Workload() {
                @Override
                public void prepare() throws InterruptedException {
                    // pregenerated bodies of millions of lines take a while; live generation only fills its queues
                    runner.prepare(runner.pregenerates() ? java.time.Duration.ofHours(1) : java.time.Duration.ofSeconds(10));
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

        void writeManifest(Environment environment, CommonOptions common) {
            Manifest manifest = reservoir.manifest(config, tally.totals());
            if (manifest == null) {
                environment.err().println("no push was acknowledged: manifest " + common.manifest + " not written");
            } else {
                manifest.write(common.manifest);
                environment.err().println("manifest of run " + config.runId() + " written to " + common.manifest);
            }
        }

        RunReport.ClientReport client(RunSession.Timing timing) {
            return new RunReport.ClientReport(RunStats.round(timing.cpuSeconds()),
                    RunStats.round(timing.cpuSeconds() / Math.max(1e-9, timing.durationSeconds())),
                    Runtime.getRuntime().availableProcessors(), RunStats.round(runner.producerCpuSeconds()),
                    RunStats.round(runner.producerWaitSeconds()));
        }
    }
}
