package io.logbloom.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The bar of the storage-engine and scan-speed issues, measured end to end on real processes: for
 * each server jar given, starts it as a child JVM on a fresh data directory, pushes a fixed data set
 * with the load-test harness jar (a child JVM on the same box, 100 streams, 1000-line
 * snappy-protobuf batches, a unique 128-bit {@code trace_id} per line in structured metadata, exactly
 * {@code --lines} lines, every body generated before the timed phase so the generator's speed does not
 * cap the rate; a push refused with 429 is retried after its {@code Retry-After}, as Promtail does, and the
 * retries are counted), flushes, and measures: push MB/s of raw log, raw MB per server CPU-second (over the
 * push alone and over push plus flush, which pays for what the push left to background merges), the CPU of the
 * server's JIT compiler threads during the push and during the needles right after the load ({@link ThreadCpu}),
 * stored bytes (the data directory without the WAL; blooms and index apart), the server's RSS after the load and
 * after the queries (each at once and again after {@link #IDLE_SETTLE} idle), needle latency
 * ({@code {run="…"} | trace_id="…"} over all streams, p50 of {@code --needles}, and again over 100 needles sent
 * after every other query, {@code needle_later_*}: the code's figure once the compiler has caught up), and instant count
 * queries over the whole range (p50 of 3, with the server's own {@code execTime} as {@code *_exec_ms}), each timed from
 * the request to the answer's last byte (as curl's
 * {@code time_total}; parsing the answer comes after) by a client warmed first on a stub in this JVM
 * ({@link ClientWarmup}, whose own round trip is reported as {@code client_floor_p50_ms}). Every result is checked (needles found, counts equal to
 * the lines pushed) so a fast wrong answer cannot pass. Several jars run one after the other in one
 * report, printed side by side with ratios to the first: that is how "against the previous engine in
 * one run" is measured; {@code --rounds N} measures them N times, the order reversed every other round, and prints
 * per-metric medians ({@link BarRounds}; every round's figures go to {@code --out} under {@code byRound}). The label
 * {@code sink} with the path {@code sink} runs {@link PushSinkServer}
 * instead of a jar: a server that drops every body, so its push MB/s is what the harness alone can send
 * on this box (the ceiling of every other column); only the push figures are measured for it.
 *
 * <p>Run (after {@code mvn -q -DskipTests package}; copy the previous engine's jar aside first):
 * {@code java -cp bench/target/benchmarks.jar io.logbloom.bench.ServerBarReport
 * --server old=/tmp/logbloom-old.jar --server new=api/target/logbloom.jar
 * --loadtest-jar loadtest/target/logbloom-loadtest.jar --lines 3000000 [--jvm-opts "-Xmx512m"]
 * [--server-jvm-opts new="-Xmx512m ..."] [--server-args new="--warmup-lines 200000"] [--needles 15] [--line-length 85]
 * [--config server.yaml] [--rounds 2] [--second-push] [--out bar.json]
 * [--server sink=sink]}; {@code --jvm-opts} go to every server, {@code --server-jvm-opts} to the labelled one
 * after them (how the old and the new shipped start commands are compared);
 * {@code --config} replaces the default config (limits raised), e.g. to measure with a feature turned
 * off; {@code --line-length 85} gives the storage issue's shape (3 M lines = 430 MB, ~143 bytes a line),
 * the default 160 gives ~206 bytes a line. {@code --second-push} pushes the same number of lines again (new ones) at
 * the end of each round, after every query, and reports {@code push2_*}: the push of a server whose compilers have
 * seen a whole push, beside the fresh server's first (which pays for compiling the push path while it runs).
 *
 * <p>Not thread-safe: one run per process.
 */
public final class ServerBarReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** Waiting longer than this for a starting server means it failed to start. */
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    /** The {@code --server} path that selects {@link PushSinkServer} instead of a jar. */
    private static final String SINK = "sink";
    /** Median line length the harness generates unless {@code --line-length} says otherwise (its default). */
    private static final int DEFAULT_LINE_LENGTH = 160;
    /** USER_HZ of Linux on every common architecture; {@code /proc/PID/stat} counts CPU time in these ticks. */
    private static final int CLOCK_TICKS_PER_SECOND = 100;
    /**
     * Idle time before the second RSS reading of each pair: a server run with G1 gives free heap back within it
     * (its periodic cycle, turned on by HeapTuning: after 15 s without a GC, checked every 15 s, so up to 30 s);
     * the parallel collector of README's start options gives nothing back when idle. The first reading shows the
     * high-water mark.
     */
    private static final Duration IDLE_SETTLE = Duration.ofSeconds(35);
    /** How long a query of the bar may take before the run fails. */
    private static final Duration QUERY_TIMEOUT = Duration.ofMinutes(5);
    /** Series written into stored objects, one per series and merge. */
    private static final String MERGED_SERIES = "logbloom_ingest_chunks_flushed_total";
    /** The server's thread groups whose CPU each push reports, as {@code <prefix><name>_cpu_s}, in that order. */
    private static final Map<String, List<String>> PUSH_THREAD_GROUPS = pushThreadGroups();
    private static final String MERGES_DEFERRED = "logbloom_ingest_merges_deferred_total";
    /** Runs of {@link CpuProbe} per probe: the first compile it, the last is timed. */
    private static final int PROBE_RUNS = 4;
    /** GETs of {@link ClientWarmup}'s stub before a server's timed queries. */
    static final int CLIENT_WARMUP_REQUESTS = 2000;
    /** Needles sent after the count queries, for a figure without the compiler's start ({@code needle_later_*}). */
    private static final int LATER_NEEDLES = 100;
    /** Repetitions of each count query; the median is reported. */
    private static final int COUNT_RUNS = 3;

    /** Rate and stream limits raised so the load measures the engine, not the limits. */
    private static final String DEFAULT_CONFIG = """
            limits:
              ingestion_rate_mb: 100000
              ingestion_burst_size_mb: 100000
              max_global_streams_per_user: 100000
              reject_old_samples: false
              max_query_series: 100000
            """;

    // line filters of the bar's counts; the harness tallies the acknowledged lines containing each
    private static final String STATUS_500 = "status=500";
    private static final String RETRYING = "retrying";

    // what a query or push answered, the same for every correct server: the harness pushes the same lines each run
    private static final List<String> ANSWERS = List.of("push_lines", "count_all_value", "count_status500_value",
            "count_retrying_series", "count_logfmt_bytes_value", "needles_found", "needles_later_found");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String configYaml;

    private ServerBarReport(String configYaml) {
        this.configYaml = configYaml;
    }

    /** Parses the flags, measures every server jar, prints the side-by-side table. */
    public static void main(String[] args) throws Exception {
        Map<String, Path> servers = new LinkedHashMap<>();
        Map<String, List<String>> serverJvmOpts = new LinkedHashMap<>();
        Path loadtestJar = Path.of("loadtest/target/logbloom-loadtest.jar");
        long lines = 3_000_000;
        int needles = 15;
        int lineLength = DEFAULT_LINE_LENGTH;
        List<String> jvmOpts = List.of();
        Map<String, List<String>> serverArgs = new LinkedHashMap<>();
        Path out = null;
        Path configFile = null;
        int rounds = 1;
        boolean secondPush = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--server" -> {
                    String[] kv = args[++i].split("=", 2);
                    if (kv.length != 2) {
                        throw new IllegalArgumentException("--server takes label=path/to/logbloom.jar, got " + args[i]);
                    }
                    servers.put(kv[0], Path.of(kv[1]));
                }
                case "--server-args" -> {
                    String[] kv = args[++i].split("=", 2);
                    if (kv.length != 2) {
                        throw new IllegalArgumentException("--server-args takes label=\"--flag value ...\", got " + args[i]);
                    }
                    serverArgs.put(kv[0], options(kv[1]));
                }
                case "--server-jvm-opts" -> {
                    String[] kv = args[++i].split("=", 2);
                    if (kv.length != 2) {
                        throw new IllegalArgumentException("--server-jvm-opts takes label=\"-Xmx512m ...\", got " + args[i]);
                    }
                    serverJvmOpts.put(kv[0], options(kv[1]));
                }
                case "--loadtest-jar" -> loadtestJar = Path.of(args[++i]);
                case "--lines" -> lines = Long.parseLong(args[++i]);
                case "--needles" -> needles = Integer.parseInt(args[++i]);
                case "--line-length" -> lineLength = Integer.parseInt(args[++i]);
                case "--jvm-opts" -> jvmOpts = options(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--config" -> configFile = Path.of(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--second-push" -> secondPush = true;
                default -> throw new IllegalArgumentException("unknown flag " + args[i] + " (flags: --server label=JAR "
                        + "(repeatable; sink=sink for the harness alone), --server-jvm-opts label=\"...\", --server-args label=\"...\", --loadtest-jar JAR, --lines N, --needles N, --line-length N, --jvm-opts \"...\", --config YAML, --rounds N, --second-push, --out FILE)");
            }
        }
        if (servers.isEmpty()) {
            servers.put("current", Path.of("api/target/logbloom.jar"));
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds takes a positive count, got " + rounds);
        }
        if (!servers.keySet().containsAll(serverArgs.keySet())) {
            throw new IllegalArgumentException("--server-args names a label without --server: " + serverArgs.keySet());
        }
        if (!servers.keySet().containsAll(serverJvmOpts.keySet())) {
            throw new IllegalArgumentException("--server-jvm-opts names a label without --server: " + serverJvmOpts.keySet());
        }
        ServerBarReport report = new ServerBarReport(configFile == null ? DEFAULT_CONFIG : Files.readString(configFile));
        Map<String, Map<String, Double>> results = new LinkedHashMap<>();
        ObjectNode json = JSON.createObjectNode();
        json.put("lines", lines);
        json.put("jvmOpts", String.join(" ", jvmOpts));
        serverJvmOpts.forEach((label, opts) -> json.put("jvmOpts_" + label, String.join(" ", opts)));
        serverArgs.forEach((label, a) -> json.put("args_" + label, String.join(" ", a)));
        json.put("lineLength", lineLength);
        json.put("rounds", rounds);
        json.put("secondPush", secondPush);
        Map<String, List<Map<String, Double>>> byServer = new LinkedHashMap<>();
        servers.keySet().forEach(label -> byServer.put(label, new ArrayList<>()));
        ArrayNode roundsJson = json.putArray("byRound");
        for (int round = 0; round < rounds; round++) {
            ObjectNode roundJson = roundsJson.addObject();
            for (String label : BarRounds.order(List.copyOf(servers.keySet()), round)) {
                System.err.printf("== %s: %s (round %d of %d)%n", label, servers.get(label), round + 1, rounds);
                List<String> opts = new ArrayList<>(jvmOpts);
                opts.addAll(serverJvmOpts.getOrDefault(label, List.of()));
                Map<String, Double> r = report.measure(servers.get(label), loadtestJar, lines, needles, lineLength, opts,
                        serverArgs.getOrDefault(label, List.of()), secondPush);
                byServer.get(label).add(r);
                roundJson.set(label, JSON.valueToTree(r));
            }
        }
        byServer.forEach((label, measured) -> {
            Map<String, Double> medians = BarRounds.medians(measured);
            results.put(label, medians);
            json.set(label, JSON.valueToTree(medians));
        });
        if (rounds > 1) {
            System.out.printf(Locale.ROOT, "medians of %d rounds, the servers' order reversed every other round%n", rounds);
        }
        List<String> disagreements = BarRounds.disagreements(byServer, ANSWERS);
        ArrayNode differ = json.putArray("answersDiffer");
        disagreements.forEach(differ::add);
        for (String d : disagreements) {
            System.out.println("ANSWERS DIFFER (the same lines were pushed to each): " + d);
        }
        String table = table(results);
        System.out.print(table);
        if (out != null) {
            JSON.writeValue(out.toFile(), json);
        }
    }

    private static List<String> options(String text) {
        return Arrays.stream(text.trim().split("\\s+")).filter(o -> !o.isEmpty()).toList();
    }

    /**
     * {@code POST /flush}, sent again once when the connection fails before any answer: the client's pooled
     * connection from the readiness check sat idle through the push, and the server may close it (Jetty's 30 s idle
     * timeout) just as the flush is sent. A flush is safe to repeat.
     */
    private HttpResponse<String> flush(String base) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/flush"))
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofMinutes(10)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            System.err.println("POST /flush failed before an answer (" + e.getMessage() + "), sending it again");
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        }
    }

    private static Map<String, List<String>> pushThreadGroups() {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        groups.put("jit", ThreadCpu.COMPILERS);
        groups.put("gc", ThreadCpu.COLLECTOR);
        groups.put("merge", ThreadCpu.MERGES);
        groups.put("seal", ThreadCpu.SEAL);
        groups.put("request", ThreadCpu.REQUESTS);
        return Collections.unmodifiableMap(groups);
    }

    /**
     * Pushes {@code lines} lines with the harness and puts what it measured into {@code r}, each name starting with
     * {@code prefix}: the rate and failures, the box's speed just before (the server idle), and what the server's CPU
     * went to meanwhile: all of it, the compilers, the collector, the merges (merge thread and encoders: a merge the
     * merge loop's periodic check starts inside the push takes a core from it), the seals and the request threads;
     * with {@code counters}, the series merged and the merges deferred for the burst ({@code /metrics}). Returns the
     * harness' push operation.
     */
    private static JsonNode measuredPush(String prefix, Path loadtestJar, String base, Process server, boolean counters,
            long lines, int lineLength, String runId, Path manifest, Path dir, Map<String, Double> r)
            throws IOException, InterruptedException {
        Path pushReport = dir.resolve(prefix + "report.json");
        // the box's CPU speed just before the push, the server idle (the probe's first runs compile it): a round
        // whose probe is slower ran on a slower box, whatever the server did
        double probe = CpuProbe.millis(PROBE_RUNS);
        double memoryProbe = CpuProbe.memoryMillis(PROBE_RUNS);
        double serverCpuBefore = cpuSeconds(server);
        Map<String, Double> threadsBefore = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> t : PUSH_THREAD_GROUPS.entrySet()) {
            threadsBefore.put(t.getKey(), ThreadCpu.seconds(server.pid(), t.getValue()));
        }
        double mergedBefore = counters ? serverCounter(base, MERGED_SERIES) : 0;
        double deferredBefore = counters ? serverCounter(base, MERGES_DEFERRED) : 0;
        push(loadtestJar, base, lines, lineLength, runId, manifest, pushReport, dir.resolve(prefix + "log.txt"));
        JsonNode report = JSON.readTree(pushReport.toFile());
        JsonNode op = report.path("operations").path("push");
        r.put(prefix + "MB_per_s", op.path("megabytesPerSecond").asDouble());
        r.put(prefix + "lines", op.path("lines").asDouble());
        r.put(prefix + "raw_MB", op.path("bytes").asDouble() / 1e6);
        r.put(prefix + "failed_requests", op.path("failed").asDouble());
        r.put(prefix + "retries", op.path("retries").asDouble());
        op.path("errorsByStatus").fields().forEachRemaining(e -> r.put(prefix + "failed_" + e.getKey(),
                e.getValue().asDouble()));
        r.put(prefix + "p99_ms", op.path("latencyMillis").path("p99").asDouble());
        double serverCpu = cpuSeconds(server) - serverCpuBefore;
        r.put(prefix + "server_cpu_s", serverCpu);
        for (Map.Entry<String, List<String>> t : PUSH_THREAD_GROUPS.entrySet()) {
            r.put(prefix + t.getKey() + "_cpu_s",
                    ThreadCpu.seconds(server.pid(), t.getValue()) - threadsBefore.get(t.getKey()));
        }
        r.put(prefix + "cpu_probe_ms", probe);
        r.put(prefix + "memory_probe_ms", memoryProbe);
        if (counters) {
            // merges finished during the push, and the checks that found the parts short of the burst's bound
            r.put(prefix + "merged_series", serverCounter(base, MERGED_SERIES) - mergedBefore);
            r.put(prefix + "merges_deferred", serverCounter(base, MERGES_DEFERRED) - deferredBefore);
        }
        r.put(prefix + "MB_per_server_cpu_s", op.path("bytes").asDouble() / 1e6 / Math.max(0.01, serverCpu));
        JsonNode client = report.path("client");
        r.put(prefix + "client_cores_used", client.path("cpuCoresUsed").asDouble(Double.NaN));
        r.put(prefix + "client_wait_s", client.path("producerWaitSeconds").asDouble(Double.NaN));
        return op;
    }

    /**
     * Pushes {@code lines} lines of the bar's shape with the harness as run {@code runId}, tallying the count queries'
     * texts into {@code manifest}, its report to {@code report}; throws when the harness fails.
     */
    private static void push(Path loadtestJar, String base, long lines, int lineLength, String runId, Path manifest,
            Path report, Path log) throws IOException, InterruptedException {
        Process push = new ProcessBuilder(javaBin(), "-jar", loadtestJar.toString(), "push", "--url", base,
                "--lines", Long.toString(lines), "--duration", "60m", "--streams", "100", "--batch-size", "1000",
                "--connections", "4", "--producers", "2", "--pregenerate", "--line-length", Integer.toString(lineLength),
                "--retry-429", "--count-lines-containing", STATUS_500, "--count-lines-containing", RETRYING,
                "--run-id", runId, "--manifest", manifest.toString(), "--report",
                report.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (push.waitFor() != 0) {
            throw new IllegalStateException("push failed, see " + log);
        }
    }

    private Map<String, Double> measure(Path serverJar, Path loadtestJar, long lines, int needles, int lineLength,
            List<String> jvmOpts, List<String> serverArgs, boolean secondPush) throws Exception {
        boolean sink = serverJar.toString().equals(SINK);
        Path dir = Files.createTempDirectory("logbloom-bar");
        Path data = dir.resolve("data");
        Path config = dir.resolve("config.yaml");
        Files.writeString(config, configYaml);
        int port = freePort();
        String base = "http://127.0.0.1:" + port;
        List<String> command = new ArrayList<>(List.of(javaBin()));
        command.addAll(jvmOpts);
        command.addAll(sink ? List.of("-cp", System.getProperty("java.class.path"), PushSinkServer.class.getName())
                : List.of("-jar", serverJar.toString()));
        command.addAll(List.of("--config", config.toString(), "--port", Integer.toString(port), "--data",
                data.toString()));
        command.addAll(serverArgs);
        Path serverLog = dir.resolve("server.log");
        Process server = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(serverLog.toFile()).start();
        long startedAt = System.nanoTime();
        Map<String, Double> r = new LinkedHashMap<>();
        try {
            awaitReady(base, server);
            if (!sink) {
                // start-up until /ready answers 200, and the CPU it took (a start-up warm-up shows here)
                r.put("start_s", (System.nanoTime() - startedAt) / 1e9);
                r.put("start_server_cpu_s", cpuSeconds(server));
            }
            Path manifest = dir.resolve("manifest.json");
            String runId = "bar-" + Long.toHexString(System.nanoTime());
            double serverCpuBefore = cpuSeconds(server);
            JsonNode op = measuredPush("push_", loadtestJar, base, server, !sink, lines, lineLength, runId, manifest,
                    dir, r);
            if (sink) {
                return r;
            }

            long flushStart = System.nanoTime();
            HttpResponse<String> flush = flush(base);
            r.put("flush_s", (System.nanoTime() - flushStart) / 1e9);
            // what the push left to the background (merges, blooms) is paid by the flush: both together are the load's CPU
            double loadCpu = cpuSeconds(server) - serverCpuBefore;
            r.put("push_flush_server_cpu_s", loadCpu);
            r.put("load_MB_per_server_cpu_s", op.path("bytes").asDouble() / 1e6 / Math.max(0.01, loadCpu));
            r.put("flush_status", (double) flush.statusCode());
            r.put("stored_MB", storedBytes(data, p -> true) / 1e6);
            r.put("stored_blooms_MB", storedBytes(data, p -> p.toString().endsWith(".bloom")) / 1e6);
            r.put("stored_index_MB", storedBytes(data, p -> p.toString().contains("/index/")) / 1e6);
            r.put("rss_after_load_MB", rssBytes(server) / 1e6);
            // this JVM's HTTP client and JSON parser compiled before the timed queries (a stub in this JVM, not the
            // server), so the figures are the server's and a second server is not measured by a client the first warmed
            r.put("client_floor_p50_ms", ClientWarmup.run(CLIENT_WARMUP_REQUESTS).floorP50Millis());
            TimeUnit.MILLISECONDS.sleep(IDLE_SETTLE.toMillis());
            r.put("rss_after_load_idle_MB", rssBytes(server) / 1e6);
            r.put("idle_cpu_probe_ms", CpuProbe.millis(PROBE_RUNS)); // the server idle: the box's speed a minute later
            r.put("idle_memory_probe_ms", CpuProbe.memoryMillis(PROBE_RUNS));

            JsonNode m = JSON.readTree(manifest.toFile());
            long start = m.path("startNanos").asLong();
            long end = m.path("endNanos").asLong() + 1;
            String selector = "{run=\"" + runId + "\"}";
            JsonNode sample = m.path("needles");
            double jitBeforeNeedles = ThreadCpu.seconds(server.pid(), ThreadCpu.COMPILERS);
            Needles warming = needles(base, selector, start, end, sample, 0, 1); // loads caches and blooms: not counted
            Needles first = needles(base, selector, start, end, sample, 1, Math.min(sample.size() - 1, needles));
            // what the compilers took from the cores meanwhile (code thrown away at the first needle is compiled again
            // while the counted ones run)
            r.put("needles_jit_cpu_ms", (ThreadCpu.seconds(server.pid(), ThreadCpu.COMPILERS) - jitBeforeNeedles) * 1e3);
            r.put("needle_p50_ms", median(first.millis()));
            r.put("needle_exec_p50_ms", median(first.execMillis()));
            r.put("needles_found_of", (double) (warming.millis().size() + first.millis().size()));
            r.put("needles_found", (double) (warming.found() + first.found()));

            String range = "[" + Math.max(1, (end - start) / 1_000_000_000L + 60) + "s]";
            long at = end;
            // every acknowledged line must be counted (a refused push, e.g. a 429, was never acknowledged)
            long acknowledged = op.path("lines").asLong();
            timedCount(base, "sum(count_over_time(" + selector + range + "))", at, acknowledged, r, "count_all",
                    "count_all_value");
            // the harness counted the acknowledged lines with these texts: the answers are checked against the truth
            JsonNode tallied = m.path("linesContaining");
            timedCount(base, "sum(count_over_time(" + selector + " |= \"" + STATUS_500 + "\" " + range + "))", at,
                    tallied.path(STATUS_500).asLong(-1), r, "count_status500", "count_status500_value");
            timedCount(base, "sum by (level) (count_over_time(" + selector + " |= \"" + RETRYING + "\" " + range + "))",
                    at, tallied.path(RETRYING).asLong(-1), r, "count_retrying_by_level", "count_retrying_series");
            timedCount(base, "sum(count_over_time(" + selector + " | logfmt | bytes > 99000 " + range + "))", at, -1,
                    r, "count_logfmt_bytes", "count_logfmt_bytes_value");
            r.put("rss_after_queries_MB", rssBytes(server) / 1e6);
            TimeUnit.MILLISECONDS.sleep(IDLE_SETTLE.toMillis());
            r.put("rss_after_queries_idle_MB", rssBytes(server) / 1e6);
            // the same needle query once the server has answered many: the code's figure without the compiler's start
            Needles later = needles(base, selector, start, end, sample, needles + 1, LATER_NEEDLES);
            r.put("needle_later_p50_ms", median(later.millis()));
            r.put("needle_later_exec_p50_ms", median(later.execMillis()));
            r.put("needles_later_found_of", (double) later.millis().size());
            r.put("needles_later_found", (double) later.found());
            if (secondPush) {
                // the same amount again on the now warm server (new lines, another run): the push once the JIT has
                // compiled the push path in earnest, beside the fresh server's first push above
                measuredPush("push2_", loadtestJar, base, server, true, lines, lineLength, runId + "-2",
                        dir.resolve("manifest2.json"), dir, r);
            }
            r.put("server_log_oom", Files.readString(serverLog).contains("OutOfMemoryError") ? 1.0 : 0.0);
        } finally {
            server.destroy();
            if (!server.waitFor(60, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
            TempTrees.delete(dir);
        }
        return r;
    }

    /**
     * Runs an instant query {@link #COUNT_RUNS} times; records the median round trip as {@code name_ms}, the median of
     * the server's own {@code execTime} as {@code name_exec_ms} (the client's state leaves it alone) and the answer's
     * value as {@code valueKey} (its series count for a {@code _series} key). With {@code expected >= 0} the lines
     * counted over all series must be exactly that: a wrong answer stops the report.
     */
    private void timedCount(String base, String query, long atNanos, long expected, Map<String, Double> r, String name,
            String valueKey) throws IOException, InterruptedException {
        List<Double> millis = new ArrayList<>();
        List<Double> execMillis = new ArrayList<>();
        double value = 0;
        double lines = 0;
        for (int i = 0; i < COUNT_RUNS; i++) {
            String url = base + "/loki/api/v1/query?query=" + enc(query) + "&time=" + atNanos;
            long t0 = System.nanoTime();
            BlockingHttp.Response response = BlockingHttp.get(url, QUERY_TIMEOUT);
            millis.add((System.nanoTime() - t0) / 1e6);
            JsonNode answer = parsed(url, response);
            execMillis.add(execMillis(answer));
            JsonNode result = answer.path("data").path("result");
            lines = 0;
            for (JsonNode series : result) {
                lines += series.path("value").get(1).asDouble();
            }
            value = valueKey.endsWith("_series") ? result.size() : lines;
        }
        if (expected >= 0 && lines != expected) {
            throw new IllegalStateException("query " + query + " counted " + (long) lines + " lines, the harness had "
                    + expected + " acknowledged");
        }
        r.put(name + "_ms", median(millis));
        r.put(name + "_exec_ms", median(execMillis));
        r.put(valueKey, value);
    }

    /** Round trips and the server's own {@code execTime} of needle queries, in ms, and how many found their line. */
    private record Needles(List<Double> millis, List<Double> execMillis, int found) {}

    /**
     * Sends {@code count} needle queries for the manifest's needles from index {@code first} on (wrapping around the
     * sample), each timed from the request to the answer's last byte.
     */
    private Needles needles(String base, String selector, long start, long end, JsonNode sample, int first, int count)
            throws IOException {
        List<Double> millis = new ArrayList<>(count);
        List<Double> execMillis = new ArrayList<>(count);
        int found = 0;
        for (int n = 0; n < count && sample.size() > 0; n++) {
            JsonNode needle = sample.get((first + n) % sample.size());
            String query = selector + " | trace_id=\"" + needle.path("traceId").asText() + "\"";
            String url = base + "/loki/api/v1/query_range?query=" + enc(query) + "&start=" + start + "&end=" + end
                    + "&limit=100";
            long t0 = System.nanoTime();
            BlockingHttp.Response response = BlockingHttp.get(url, QUERY_TIMEOUT);
            millis.add((System.nanoTime() - t0) / 1e6); // the request until the answer's last byte, as curl times it
            JsonNode answer = parsed(url, response);
            if (answer.toString().contains(jsonEscaped(needle.path("line").asText()))) {
                found++;
            }
            // the server's own account (Loki's stats.summary.execTime, seconds; NaN from a server without it): what is
            // left of the round trip is HTTP, routing, parsing the request and writing the answer
            execMillis.add(execMillis(answer));
        }
        return new Needles(millis, execMillis, found);
    }

    /** A counter of the server's {@code /metrics}, summed over its label sets. */
    private static double serverCounter(String base, String name) throws IOException {
        BlockingHttp.Response response = BlockingHttp.get(base + "/metrics", QUERY_TIMEOUT);
        if (response.status() != 200) {
            throw new IOException("GET /metrics answered " + response.status());
        }
        return MetricsText.sum(response.body(), name);
    }

    /** The server's own account of a query's answer in ms (Loki's {@code stats.summary.execTime}), NaN without it. */
    private static double execMillis(JsonNode answer) {
        return answer.path("data").path("stats").path("summary").path("execTime").asDouble(Double.NaN) * 1e3;
    }

    /** A query's answer parsed; anything but 200 fails the run. */
    private static JsonNode parsed(String url, BlockingHttp.Response response) throws IOException {
        if (response.status() != 200) {
            throw new IllegalStateException("GET " + url + " answered " + response.status() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    private void awaitReady(String base, Process server) throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("server exited with " + server.exitValue() + " before it was ready");
            }
            try {
                HttpResponse<String> ready = http.send(HttpRequest.newBuilder(URI.create(base + "/ready"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
        throw new IllegalStateException("server not ready after " + START_TIMEOUT);
    }

    /** Bytes of the files under {@code data} (the WAL and its local parts left out) that {@code which} selects. */
    private static long storedBytes(Path data, java.util.function.Predicate<Path> which) throws IOException {
        Path wal = data.resolve("wal");
        try (Stream<Path> files = Files.walk(data)) {
            return files.filter(Files::isRegularFile).filter(p -> !p.startsWith(wal)).filter(which).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        }
    }

    static long rssBytes(Process process) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("no VmRSS in /proc/" + process.pid() + "/status");
    }

    /** Returns the user + system CPU seconds the process has used (Linux {@code /proc/PID/stat}, 100 ticks/s). */
    static double cpuSeconds(Process process) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
        // fields after the parenthesised command name: state is field 3, utime 14, stime 15
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / (double) CLOCK_TICKS_PER_SECOND;
    }

    private static String table(Map<String, Map<String, Double>> results) {
        StringBuilder sb = new StringBuilder();
        List<String> labels = new ArrayList<>(results.keySet());
        sb.append(String.format(Locale.ROOT, "%-28s", "metric"));
        for (String label : labels) {
            sb.append(String.format(Locale.ROOT, " %14s", label));
        }
        if (labels.size() > 1) {
            for (int i = 1; i < labels.size(); i++) {
                sb.append(String.format(Locale.ROOT, " %14s", labels.get(i) + "/" + labels.get(0)));
            }
        }
        sb.append('\n');
        java.util.Set<String> metrics = new java.util.LinkedHashSet<>();
        results.values().forEach(r -> metrics.addAll(r.keySet()));
        for (String metric : metrics) {
            sb.append(String.format(Locale.ROOT, "%-28s", metric));
            for (String label : labels) {
                sb.append(String.format(Locale.ROOT, " %14.2f", results.get(label).getOrDefault(metric, Double.NaN)));
            }
            double baseline = results.get(labels.get(0)).getOrDefault(metric, Double.NaN);
            for (int i = 1; i < labels.size(); i++) {
                double v = results.get(labels.get(i)).getOrDefault(metric, Double.NaN);
                sb.append(String.format(Locale.ROOT, " %14.3f", baseline == 0 ? Double.NaN : v / baseline));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    static double median(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String jsonEscaped(String s) {
        try {
            String quoted = JSON.writeValueAsString(s);
            return quoted.substring(1, quoted.length() - 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

}
