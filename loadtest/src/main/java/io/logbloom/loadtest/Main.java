package io.logbloom.loadtest;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Entry point of {@code logbloom-loadtest.jar}: the {@code push}, {@code query} and {@code mixed}
 * subcommands, and {@code --compare A.json B.json}.
 *
 * <p>Not thread-safe: one instance per process invocation.
 */
@Command(name = "logbloom-loadtest", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Load-test harness for Logbloom and any Loki-compatible server (HTTP only).",
        footer = {"", "Exit codes: 0 run finished, 1 run aborted (server stopped answering), 2 bad usage, "
                + "3 a needle query did not return exactly its line.",
                "Example: push --url http://127.0.0.1:3100 --duration 30s, then query --duration 30s --html report.html"})
public final class Main implements Callable<Integer> {
    private final Environment environment;

    @Option(names = "--compare", arity = "2", paramLabel = "REPORT.json",
            description = "Print a side-by-side table of two JSON reports with ratios B/A.")
    List<Path> compare;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    Main(Environment environment) {
        this.environment = environment;
    }

    /** Runs the harness and exits with its exit code. */
    public static void main(String[] args) {
        System.exit(run(Environment.system(), args));
    }

    /** Runs the harness with an injected environment and returns the exit code. */
    static int run(Environment environment, String... args) {
        CommandLine commandLine = new CommandLine(new Main(environment))
                .addSubcommand("push", new PushCommand(environment))
                .addSubcommand("query", new QueryCommand(environment))
                .addSubcommand("mixed", new MixedCommand(environment))
                .setOut(new PrintWriter(environment.out(), true))
                .setErr(new PrintWriter(environment.err(), true))
                .setExecutionExceptionHandler((exception, cmd, parseResult) -> {
                    if (exception instanceof IllegalArgumentException || exception instanceof java.io.UncheckedIOException) {
                        cmd.getErr().println("error: " + exception.getMessage());
                        return ReportOutput.USAGE;
                    }
                    throw exception;
                });
        return commandLine.execute(args);
    }

    @Override
    public Integer call() {
        if (compare == null) {
            spec.commandLine().usage(environment.err());
            return ReportOutput.USAGE;
        }
        RunReport a = RunReport.read(compare.get(0));
        RunReport b = RunReport.read(compare.get(1));
        environment.out().print(ReportComparison.table(a, "A " + compare.get(0).getFileName(), b,
                "B " + compare.get(1).getFileName()));
        return ReportOutput.OK;
    }

    /** Reports the jar's version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            return new String[] {"logbloom-loadtest " + (version == null ? "development build" : version)};
        }
    }
}
