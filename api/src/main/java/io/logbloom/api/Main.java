package io.logbloom.api;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Entry point of {@code logbloom.jar}: reads the YAML config (environment references expanded),
 * applies the flags (which win over the file), warms the JIT up ({@link JitWarmup}, unless
 * {@code server.warmup_lines} is 0), starts {@link LogbloomServer} and stops it gracefully
 * on SIGTERM/SIGINT through a shutdown hook. Exit code 1 with a one-line message on a bad config or
 * a failed start. Not thread-safe (one instance per process run).
 */
@Command(name = "logbloom", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Log store speaking Grafana Loki's HTTP API, with per-series bloom filters.%n"
                + "Config file values may reference the environment as $${VAR} or $${VAR:-default};"
                + " a doubled dollar sign is one literal dollar sign.")
public final class Main implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "YAML config file (default: built-in defaults)")
    Path configFile;

    @Option(names = "--port", paramLabel = "N", description = "HTTP port (default 3100; 0 picks a free port)")
    Integer port;

    @Option(names = "--data", paramLabel = "DIR",
            description = "data directory of the filesystem store; the WAL goes to DIR/wal unless wal.directory is set (default ./data)")
    Path dataDirectory;

    @Option(names = "--bind", paramLabel = "ADDR", description = "address to listen on (default 127.0.0.1)")
    String bindAddress;

    @Option(names = "--target", paramLabel = "ROLE",
            description = "role of this process: all (default), distributor, ingester, querier or compactor")
    String target;

    @Option(names = "--warmup-lines", paramLabel = "N",
            description = "lines of the start-up JIT warm-up on a private in-process server (server.warmup_lines, default "
                    + LogbloomConfig.Server.DEFAULT_WARMUP_LINES + "; 0 turns it off)")
    Integer warmupLines;

    /** Runs the server until the process is told to stop. */
    public static void main(String[] args) {
        int code = new CommandLine(new Main()).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        LogbloomServer server;
        try {
            server = new LogbloomServer(effectiveConfig(System.getenv()), Clock.systemUTC());
        } catch (ConfigException e) {
            System.err.println("logbloom: " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } finally {
                stopped.countDown();
            }
        }, "logbloom-shutdown"));
        HeapTuning.apply();
        int lines = server.config().server().warmupLines();
        if (lines > 0) {
            new JitWarmup(lines, JitWarmup.queriesFor(lines),
                    Duration.ofSeconds(server.config().server().warmupSettleSeconds()), CompilerSettle.ofThisJvm(),
                    Clock.systemUTC()).runQuietly();
        }
        try {
            server.start();
        } catch (RuntimeException | Error e) {
            System.err.println("logbloom: cannot start: " + e);
            return 1;
        }
        stopped.await();
        return 0;
    }

    /** The config file (or the defaults) with the flags applied; environment references resolved from {@code environment}. */
    LogbloomConfig effectiveConfig(Map<String, String> environment) {
        LogbloomConfig fromFile = configFile == null ? LogbloomConfig.defaults()
                : LogbloomConfig.load(configFile, environment);
        LogbloomConfig config = fromFile.withOverrides(port, bindAddress, dataDirectory, target);
        return warmupLines == null ? config : config.withWarmupLines(warmupLines);
    }

    /** The version printed by {@code --version}. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            BuildInfo info = BuildInfo.load();
            return new String[] {"logbloom " + info.version() + " (revision " + info.revision() + ", " + info.goVersion()
                    + ")"};
        }
    }
}
