package io.logbloom.bench;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.PushEnricher;
import io.logbloom.ingest.PushEnrichmentConfig;
import io.logbloom.ingest.PushStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH: the push enricher alone (service-name discovery and {@code detected_level}, Loki 3's defaults) over one
 * push of 1000 lines in 100 streams, the load-test harness' shape: labels {@code run, job, namespace, service, pod}
 * and, with {@code level=label} as the harness sends, a {@code level} label; with {@code logfmt} or {@code json} no
 * such label, so each line's level is detected from its text, a logfmt line starting with {@code level=}, a JSON
 * object with a nested object before its {@code level} field, or a plain line (no {@code =}) that Loki's keyword
 * search reads. A unique {@code trace_id} per entry. Each operation enriches streams whose
 * selector texts are new String instances, as a decoded push's are.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar PushEnricherBenchmark}. The setup checks that every entry
 * gets the level its stream or line gives. Per-thread state, not shared.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PushEnricherBenchmark {
    private static final int STREAMS = 100;
    private static final int BATCH_LINES = 1000;
    private static final String[] LEVELS = {"debug", "info", "warn", "error"};
    /** Plain lines' openings that Loki's keyword search maps to {@link #LEVELS} in turn. */
    private static final String[] PLAIN_PREFIX = {"DEBUG: ", "INFO ", "WARNING ", "ERROR "};

    /** Where the level is: a stream label (the harness' streams), or each line's logfmt, JSON or plain text. */
    @Param({"label", "logfmt", "json", "plain"})
    String level;

    private final PushEnricher enricher = new PushEnricher(PushEnrichmentConfig.defaults());
    private final List<String> selectors = new ArrayList<>();
    private final List<List<LogEntry>> entries = new ArrayList<>();

    /** Builds the streams and checks the levels enrichment gives them. */
    @Setup(Level.Trial)
    public void setUp() {
        Random random = new Random(42);
        long base = 1_700_000_000_000_000_000L;
        for (int s = 0; s < STREAMS; s++) {
            String level = LEVELS[s % LEVELS.length];
            selectors.add("{job=\"loadtest\", namespace=\"ns-" + (s % 3) + "\", pod=\"svc-" + (s % 12) + "-"
                    + Integer.toHexString(0x100000 + s) + "-" + s + "\", run=\"bench\", service=\"svc-" + (s % 12) + "\""
                    + (this.level.equals("label") ? ", level=\"" + level + "\"" : "") + "}");
            List<LogEntry> stream = new ArrayList<>();
            for (int l = 0; l < BATCH_LINES / STREAMS; l++) {
                String traceId = String.format("%016x%016x", random.nextLong(), random.nextLong());
                String text = PushReport.logLine(random, 0, s, l);
                String line = this.level.equals("json")
                        ? "{\"ts\":" + l + ",\"http\":{\"method\":\"GET\",\"status\":200},\"level\":\"" + level
                                + "\",\"msg\":\"" + text.replace("\"", "'") + "\"}"
                        : this.level.equals("plain") ? PLAIN_PREFIX[s % LEVELS.length] + text.replaceAll(" level=\\w+", "").replace('=', ':')
                        : "level=" + level + " " + text;
                stream.add(new LogEntry(base + ((long) s * BATCH_LINES + l) * 1000L, line,
                        List.of(new Label("trace_id", traceId))));
            }
            entries.add(List.copyOf(stream));
        }
        List<PushStream> out = enrich();
        for (int s = 0; s < STREAMS; s++) {
            for (LogEntry e : out.get(s).entries()) {
                if (!LEVELS[s % LEVELS.length].equals(e.metadataValue("detected_level"))) {
                    throw new IllegalStateException("stream " + s + " entry got level " + e.metadataValue("detected_level"));
                }
            }
        }
    }

    /** Enriches one push. */
    @Benchmark
    public List<PushStream> enrich() {
        List<PushStream> push = new ArrayList<>(STREAMS);
        for (int s = 0; s < STREAMS; s++) {
            push.add(new PushStream(new String(selectors.get(s)), entries.get(s)));
        }
        return enricher.enrich(push);
    }
}
