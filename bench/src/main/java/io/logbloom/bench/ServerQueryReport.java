package io.logbloom.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The server request path's measurement on an already loaded data set: the trace_id needle and the plain count
 * through HTTP, on several server jars at once, so a noisy shared box slows all of them alike. Each jar starts on
 * its own copy of {@code --data DIR} (a directory as the load-test scripts leave it: {@code data/},
 * {@code config.yaml}, {@code manifest.json} with the run's needles and time range). First, one server at a time,
 * the cold figures right after start (p50 of {@code --cold-needles} needles, 15 by default, after a first one
 * that loads the blooms and is not counted, as {@code ServerBarReport} takes them, by a client warmed first on a stub,
 * {@link ClientWarmup}; then the plain count p50 of 3); then, after {@code --warmup} queries of each kind, {@code --rounds} rounds
 * that alternate the servers, each round {@code --per-round} needles (cycling through the manifest's ids) and as
 * many plain counts, giving the warm p50 latency and the server's CPU milliseconds per query ({@code /proc/PID/stat},
 * every thread of the server: GC and JIT included). Every answer is checked: a needle must return its line, a count
 * the manifest's line count.
 *
 * <p>Run (after {@code mvn -q -DskipTests package}): {@code java -cp bench/target/benchmarks.jar
 * io.logbloom.bench.ServerQueryReport --data /tmp/loaded --server old=/tmp/logbloom-old.jar
 * --server new=api/target/logbloom.jar [--jvm-opts "-Xmx512m ..."] [--cold-needles 15] [--warmup 100] [--rounds 6]
 * [--per-round 25] [--server-args new="--warmup-lines 0"]}; {@code --server-args} are appended to the labelled
 * server's command line (one jar can run under two labels with different flags);
 * ratios are to the first server.
 *
 * <p>Not thread-safe: one run per process.
 */
public final class ServerQueryReport {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** README's start options, the shipped configuration the issues' targets are measured on. */
    private static final String DEFAULT_JVM_OPTS = "-Xms64m -Xmx512m -XX:+UseParallelGC -XX:GCTimeRatio=4 -XX:MaxMetaspaceSize=128m "
            + "-XX:ReservedCodeCacheSize=64m -Djdk.nio.maxCachedBufferSize=262144";
    /** Waiting longer than this for a starting server means it failed to start. */
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonNode manifest;
    private final Path dataSet;

    private ServerQueryReport(Path dataSet) throws IOException {
        this.dataSet = dataSet;
        this.manifest = JSON.readTree(dataSet.resolve("manifest.json").toFile());
    }

    /** One running server under measurement. */
    private record Server(String label, Process process, String base, Path dir) {}

    /** Starts the servers, measures cold then warm alternating, prints the table. */
    public static void main(String[] args) throws Exception {
        Map<String, Path> jars = new LinkedHashMap<>();
        Path data = null;
        String jvmOpts = DEFAULT_JVM_OPTS;
        int warmup = 100;
        int coldNeedles = 15;
        Map<String, String> serverArgs = new LinkedHashMap<>();
        int rounds = 6;
        int perRound = 25;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--server" -> {
                    String[] kv = args[++i].split("=", 2);
                    jars.put(kv[0], Path.of(kv[1]));
                }
                case "--data" -> data = Path.of(args[++i]);
                case "--jvm-opts" -> jvmOpts = args[++i];
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--cold-needles" -> coldNeedles = Integer.parseInt(args[++i]);
                case "--server-args" -> {
                    String[] kv = args[++i].split("=", 2);
                    serverArgs.put(kv[0], kv[1]);
                }
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--per-round" -> perRound = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown flag " + args[i] + " (flags: --server LABEL=JAR,"
                        + " --data DIR, --jvm-opts OPTS, --cold-needles N, --server-args LABEL=ARGS, --warmup N, --rounds N,"
                        + " --per-round N)");
            }
        }
        if (jars.isEmpty() || data == null) {
            throw new IllegalArgumentException("--server LABEL=JAR (one or more) and --data DIR are required");
        }
        new ServerQueryReport(data).run(jars, serverArgs, jvmOpts, coldNeedles, warmup, rounds, perRound);
    }

    private void run(Map<String, Path> jars, Map<String, String> serverArgs, String jvmOpts, int coldNeedles, int warmup,
            int rounds, int perRound) throws Exception {
        Map<String, Map<String, Double>> results = new LinkedHashMap<>();
        List<Server> servers = new ArrayList<>();
        try {
            for (Map.Entry<String, Path> jar : jars.entrySet()) {
                Server server = start(jar.getKey(), jar.getValue(), jvmOpts, serverArgs.getOrDefault(jar.getKey(), ""));
                servers.add(server);
                Map<String, Double> r = new LinkedHashMap<>();
                // this JVM's HTTP client compiled first (on a stub, not the server): each server's cold figures are its own
                r.put("client_floor_p50_ms", ClientWarmup.run(ServerBarReport.CLIENT_WARMUP_REQUESTS).floorP50Millis());
                List<Double> needles = new ArrayList<>();
                for (int i = 0; i <= coldNeedles && i < manifest.path("needles").size(); i++) {
                    double ms = needle(server, i);
                    if (i > 0) { // as the bar's script: the first one loads the blooms and is not counted
                        needles.add(ms);
                    }
                }
                r.put("cold_needle_p50_ms", ServerBarReport.median(needles));
                List<Double> counts = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    counts.add(count(server));
                }
                r.put("cold_count_all_p50_ms", ServerBarReport.median(counts));
                results.put(server.label(), r);
            }
            for (Server server : servers) {
                for (int i = 0; i < warmup; i++) {
                    needle(server, i);
                    count(server);
                }
            }
            Map<String, List<Double>> needleMs = new LinkedHashMap<>();
            Map<String, List<Double>> countMs = new LinkedHashMap<>();
            Map<String, double[]> cpu = new LinkedHashMap<>();
            for (int round = 0; round < rounds; round++) {
                for (Server server : servers) {
                    double[] seconds = cpu.computeIfAbsent(server.label(), k -> new double[2]);
                    double before = ServerBarReport.cpuSeconds(server.process());
                    for (int i = 0; i < perRound; i++) {
                        needleMs.computeIfAbsent(server.label(), k -> new ArrayList<>())
                                .add(needle(server, round * perRound + i));
                    }
                    double between = ServerBarReport.cpuSeconds(server.process());
                    for (int i = 0; i < perRound; i++) {
                        countMs.computeIfAbsent(server.label(), k -> new ArrayList<>()).add(count(server));
                    }
                    seconds[0] += between - before;
                    seconds[1] += ServerBarReport.cpuSeconds(server.process()) - between;
                }
            }
            for (Server server : servers) {
                Map<String, Double> r = results.get(server.label());
                double queries = (double) rounds * perRound;
                r.put("warm_needle_p50_ms", ServerBarReport.median(needleMs.get(server.label())));
                r.put("warm_needle_cpu_ms", cpu.get(server.label())[0] * 1000 / queries);
                r.put("warm_count_all_p50_ms", ServerBarReport.median(countMs.get(server.label())));
                r.put("warm_count_all_cpu_ms", cpu.get(server.label())[1] * 1000 / queries);
                r.put("rss_MB", ServerBarReport.rssBytes(server.process()) / 1e6);
            }
        } finally {
            for (Server server : servers) {
                stop(server);
            }
        }
        System.out.print(table(results));
    }

    private Server start(String label, Path jar, String jvmOpts, String args) throws Exception {
        Path dir = Files.createTempDirectory("logbloom-query-report");
        copyTree(dataSet.resolve("data"), dir.resolve("data"));
        int port = ServerBarReport.freePort();
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.stream(jvmOpts.trim().split("\\s+")).filter(o -> !o.isEmpty()).toList());
        command.addAll(List.of("-jar", jar.toString(), "--config", dataSet.resolve("config.yaml").toString(),
                "--port", Integer.toString(port), "--bind", "127.0.0.1", "--data", dir.resolve("data").toString()));
        command.addAll(Arrays.stream(args.trim().split("\\s+")).filter(o -> !o.isEmpty()).toList());
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile()).start();
        Server server = new Server(label, process, "http://127.0.0.1:" + port, dir);
        try {
            awaitReady(server);
        } catch (RuntimeException | InterruptedException e) {
            stop(server);
            throw e;
        }
        return server;
    }

    private double needle(Server server, int i) throws IOException, InterruptedException {
        JsonNode needles = manifest.path("needles");
        JsonNode needle = needles.get(Math.floorMod(i, needles.size()));
        String query = "{run=\"" + needle.path("labels").path("run").asText() + "\"} | trace_id=\""
                + needle.path("traceId").asText() + "\"";
        long t0 = System.nanoTime();
        String body = get(server, "/loki/api/v1/query_range?query=" + enc(query) + "&start="
                + manifest.path("startNanos").asLong() + "&end=" + (manifest.path("endNanos").asLong() + 1)
                + "&limit=100");
        double ms = (System.nanoTime() - t0) / 1e6;
        if (!body.contains(needle.path("traceId").asText())) {
            throw new IllegalStateException(server.label() + ": needle " + query + " not found");
        }
        return ms;
    }

    private double count(Server server) throws IOException, InterruptedException {
        long start = manifest.path("startNanos").asLong();
        long end = manifest.path("endNanos").asLong() + 1;
        String run = manifest.path("needles").get(0).path("labels").path("run").asText();
        String query = "sum(count_over_time({run=\"" + run + "\"}[" + ((end - start) / 1_000_000_000L + 60) + "s]))";
        long t0 = System.nanoTime();
        String body = get(server, "/loki/api/v1/query?query=" + enc(query) + "&time=" + end);
        double ms = (System.nanoTime() - t0) / 1e6;
        JsonNode result = JSON.readTree(body).path("data").path("result");
        long expected = manifest.path("linesPushed").asLong();
        if (result.size() != 1 || result.get(0).path("value").get(1).asLong() != expected) {
            throw new IllegalStateException(server.label() + ": count answered " + result + ", expected " + expected);
        }
        return ms;
    }

    /** A timed GET ({@link BlockingHttp}); anything but 200 fails the run. */
    private String get(Server server, String pathAndQuery) throws IOException {
        BlockingHttp.Response response = BlockingHttp.get(server.base() + pathAndQuery, Duration.ofMinutes(5));
        if (response.status() != 200) {
            throw new IllegalStateException(server.label() + ": GET " + pathAndQuery + " answered "
                    + response.status() + ": " + response.body());
        }
        return response.body();
    }

    private void awaitReady(Server server) throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!server.process().isAlive()) {
                throw new IllegalStateException(server.label() + " exited with " + server.process().exitValue()
                        + " before it was ready; see " + server.dir().resolve("server.log"));
            }
            try {
                HttpResponse<String> ready = http.send(HttpRequest.newBuilder(URI.create(server.base() + "/ready"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
        throw new IllegalStateException(server.label() + " not ready after " + START_TIMEOUT);
    }

    private static void stop(Server server) throws IOException, InterruptedException {
        server.process().destroy();
        if (!server.process().waitFor(60, TimeUnit.SECONDS)) {
            server.process().destroyForcibly();
        }
        try (Stream<Path> files = Files.walk(server.dir())) {
            for (Path p : files.sorted((a, b) -> b.compareTo(a)).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static String table(Map<String, Map<String, Double>> results) {
        StringBuilder sb = new StringBuilder();
        List<String> labels = new ArrayList<>(results.keySet());
        sb.append(String.format(Locale.ROOT, "%-24s", "metric"));
        labels.forEach(label -> sb.append(String.format(Locale.ROOT, " %12s", label)));
        for (int i = 1; i < labels.size(); i++) {
            sb.append(String.format(Locale.ROOT, " %12s", labels.get(i) + "/" + labels.get(0)));
        }
        sb.append('\n');
        for (String metric : results.get(labels.get(0)).keySet()) {
            sb.append(String.format(Locale.ROOT, "%-24s", metric));
            labels.forEach(label -> sb.append(String.format(Locale.ROOT, " %12.2f", results.get(label).get(metric))));
            double baseline = results.get(labels.get(0)).get(metric);
            for (int i = 1; i < labels.size(); i++) {
                sb.append(String.format(Locale.ROOT, " %12.3f", results.get(labels.get(i)).get(metric) / baseline));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
