package io.logbloom.bench;

import io.logbloom.logql.Direction;
import io.logbloom.logql.Engine;
import io.logbloom.logql.EntrySource;
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
 * JMH: the load-test read shapes on the engine alone: {@value #STREAMS} streams, {@value #LINES} lines over 10 s,
 * every line with a unique {@code trace_id} structured metadata (so each sample of a metric query is its own
 * series before the outer aggregation, as in Loki).
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar LogQLRangeBenchmark}. {@code rangeQuery} evaluates
 * {@link #metricQuery} over [0, 10 s] at step 1 s; {@code rareLineFilter} runs {@code |= "deadlock detected"}
 * (3 matching lines) with limit 100. Scores are nanoseconds per input line. {@code pushdown=false} is the engine
 * without the grouping pushdown (the baseline of the same run). The setup checks both engines give the same
 * result. Not thread-safe: one benchmark thread per state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
public class LogQLRangeBenchmark {

    static final int LINES = 30_000;
    static final int STREAMS = 100;
    private static final long SECOND = 1_000_000_000L;

    @Param({
        "sum by (level) (rate({app=\"api\"}[1m]))",
        "sum by (level) (count_over_time({app=\"api\"} |= \"GET\" [1m]))",
        "quantile_over_time(0.99, {app=\"api\"} |= \"duration_ms=\" | logfmt | unwrap duration_ms [1m]) by (level)"})
    String metricQuery;

    @Param({"true", "false"})
    boolean pushdown;

    private Engine engine;
    private SampleExpr metricExpr;
    private LogExpr needleExpr;
    private List<Map<String, String>> streamLabels;
    private List<List<StreamEntry>> streams;

    /** Generates the lines and checks the results once. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        engine = new Engine(pushdown);
        metricExpr = (SampleExpr) LogQL.parse(metricQuery);
        needleExpr = (LogExpr) LogQL.parse("{app=\"api\"} |= \"deadlock detected\"");
        Random r = new Random(1);
        String[] levels = {"debug", "info", "warn", "error"};
        String[] methods = {"GET", "POST", "PUT", "DELETE"};
        streamLabels = new ArrayList<>();
        streams = new ArrayList<>();
        for (int s = 0; s < STREAMS; s++) {
            streamLabels.add(Map.of("app", "api", "level", levels[s % levels.length], "pod", "pod-" + s));
            streams.add(new ArrayList<>());
        }
        for (int i = 0; i < LINES; i++) {
            String line = i % 10_000 == 5_000 ? "ERROR deadlock detected while updating row " + i
                    : "method=" + methods[r.nextInt(methods.length)] + " path=/api/v1/items/" + r.nextInt(1000)
                            + " status=200 duration_ms=" + r.nextInt(50) + " msg=\"request served\"";
            String traceId = Long.toHexString(r.nextLong()) + Long.toHexString(r.nextLong());
            streams.get(i % STREAMS).add(new StreamEntry(i * (10 * SECOND / LINES), line, Map.of("trace_id", traceId)));
        }
        MetricResult.Matrix m = rangeQuery();
        MetricResult.Matrix reference = new Engine(false).evalRange(metricExpr, source(), 0, 10 * SECOND, SECOND);
        if (m.series().size() != levels.length || m.series().size() != reference.series().size()) {
            throw new IllegalStateException("unexpected series: " + m.series().size() + " vs " + reference.series().size());
        }
        for (int i = 0; i < m.series().size(); i++) {
            List<MetricResult.Point> a = m.series().get(i).points();
            List<MetricResult.Point> b = reference.series().get(i).points();
            for (int j = 0; j < a.size(); j++) {
                if (Math.abs(a.get(j).value() - b.get(j).value()) > 1e-9 * Math.abs(b.get(j).value())) {
                    throw new IllegalStateException("pushdown differs at " + j + ": " + a.get(j) + " vs " + b.get(j));
                }
            }
        }
        if (rareLineFilter() != 3) {
            throw new IllegalStateException("rare line filter did not find the 3 lines");
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

    /** Evaluates the metric query at 11 steps; score is ns per input line. */
    @Benchmark
    @OperationsPerInvocation(LINES)
    public MetricResult.Matrix rangeQuery() throws IOException {
        return engine.evalRange(metricExpr, source(), 0, 10 * SECOND, SECOND);
    }

    /** Runs a rare line filter over all lines with limit 100; score is ns per input line. */
    @Benchmark
    @OperationsPerInvocation(LINES)
    public int rareLineFilter() throws IOException {
        return engine.evalLogs(needleExpr, source(), 0, 11 * SECOND, 100, Direction.FORWARD).entryCount();
    }
}
