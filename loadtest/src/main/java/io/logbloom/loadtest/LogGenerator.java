package io.logbloom.loadtest;

import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Deterministic generator of realistic log traffic.
 *
 * <p>The run's series are fixed up front: stream {@code i} gets the labels {@code run}, {@code job},
 * {@code namespace}, {@code service}, {@code pod} and {@code level}, all derived from the seed, so
 * {@code --streams} sets the label cardinality. Lines mix logfmt (45 %), JSON (35 %) and plain text
 * (20 %) with HTTP methods, paths, status codes coherent with the level, durations and sizes drawn
 * from log-normal distributions, and a log-normal line length (median configurable, 160 by
 * default, clamped to [40, 4 x median]) reached by padding with words. Each entry carries a unique 128-bit {@code trace_id}
 * in structured metadata. One line in {@link #RARE_LINE_ODDS} carries one of {@link #RARE_PHRASES},
 * so a substring query has something rare to find.
 *
 * <p>Work is split into lanes: lane {@code c} of {@code n} owns the streams {@code i % n == c}. One
 * lane is produced by one thread and sent by one connection in order, so timestamps increase per
 * stream on the wire even with many connections. The content of batch {@code s} of a lane depends
 * only on (seed, lane, lane count, s); timestamps come from the injected clock, made strictly
 * increasing per stream.
 *
 * <p>Thread-safe: the generator itself is immutable; each {@link Lane} is confined to one thread.
 */
public final class LogGenerator {
    /** Structured-metadata key of the unique per-line id. */
    public static final String TRACE_ID = "trace_id";
    /** Structured-metadata key of the optional user id. */
    public static final String USER_ID = "user_id";
    /** Structured-metadata key of the optional session id. */
    public static final String SESSION_ID = "session_id";
    /** Phrases that appear in about one line in {@link #RARE_LINE_ODDS}. */
    public static final List<String> RARE_PHRASES =
            List.of("disk quota exceeded", "certificate has expired", "deadlock detected", "split brain suspected");
    /** One line in this many is a rare line. */
    public static final int RARE_LINE_ODDS = 2_000;

    private static final String[] NAMESPACES = {"prod", "staging", "payments", "edge"};
    private static final String[] SERVICES = {
        "api-gateway", "checkout", "cart", "catalog", "auth", "search", "inventory", "shipping",
        "billing", "notifications", "recommendations", "frontend"
    };
    private static final String[] LEVELS = {"debug", "info", "warn", "error"};
    // Share of streams per level: most services log at info, a few are noisy at debug or error.
    private static final int[] LEVEL_WEIGHTS = {10, 70, 12, 8};
    private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH"};
    private static final int[] METHOD_WEIGHTS = {60, 25, 8, 5, 2};
    private static final String[] PATHS = {
        "/api/v1/users/%d", "/api/v1/orders/%d", "/api/v1/cart/%d/items", "/api/v1/products/%d",
        "/api/v1/search", "/api/v1/login", "/api/v1/payments/%d/capture", "/healthz", "/metrics",
        "/api/v2/inventory/%d", "/api/v1/shipments/%d/track", "/static/js/app.%d.js"
    };
    private static final int[] OK_STATUS = {200, 200, 200, 200, 200, 200, 201, 204, 301, 304};
    private static final int[] WARN_STATUS = {400, 401, 403, 404, 404, 409, 429};
    private static final int[] ERROR_STATUS = {500, 502, 503, 504};
    private static final String[] PLAIN_MESSAGES = {
        "cache refresh finished", "connection pool resized", "background compaction done",
        "scheduled job completed", "config reloaded", "upstream health check passed",
        "retrying request after backoff", "queue depth above threshold"
    };
    private static final String[] WORDS = {
        "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
        "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
        "uniform", "victor", "whiskey", "xray", "yankee", "zulu", "shard", "replica", "tenant",
        "region", "bucket", "segment", "offset", "partition", "leader", "follower", "token", "lease",
        "snapshot", "checkpoint", "window", "batch", "cursor", "commit", "rollback", "frame"
    };
    // Lines never go below the fixed fields' length nor above 4x the median (a long-tailed but bounded mix).
    private static final int MIN_LINE_LENGTH = 40;
    private static final int MAX_LINE_FACTOR = 4;
    // Spread of the log-normal length distribution: about 90 % of lines within 0.4x..2.7x the median.
    private static final double LINE_LENGTH_SIGMA = 0.6;

    private final GeneratorConfig config;
    private final List<Map<String, String>> streamLabels;

    /** Creates a generator and derives the run's stream label sets from the seed. */
    public LogGenerator(GeneratorConfig config) {
        this.config = java.util.Objects.requireNonNull(config, "config is null");
        SplittableRandom random = new SplittableRandom(config.seed());
        List<Map<String, String>> labels = new ArrayList<>(config.streams());
        for (int i = 0; i < config.streams(); i++) {
            Map<String, String> set = new TreeMap<>();
            String service = SERVICES[i % SERVICES.length];
            set.put("run", config.runId());
            set.put("job", "loadtest");
            set.put("namespace", NAMESPACES[(i / SERVICES.length) % NAMESPACES.length]);
            set.put("service", service);
            set.put("pod", service + "-" + Integer.toHexString(0x100000 + random.nextInt(0xefffff)) + "-" + i);
            set.put("level", LEVELS[weighted(random, LEVEL_WEIGHTS)]);
            labels.add(java.util.Collections.unmodifiableMap(set));
        }
        this.streamLabels = List.copyOf(labels);
    }

    /** Returns the generator's configuration. */
    public GeneratorConfig config() {
        return config;
    }

    /** Returns the label set of every stream of the run, indexed by stream number. */
    public List<Map<String, String>> streamLabels() {
        return streamLabels;
    }

    /**
     * The information in a generated line, in bits: the mean self-information {@code -log2 P(line | its stream's
     * level)} of {@code samples} lines drawn as the lanes draw them (a stream chosen uniformly, then the line's
     * choices). Each choice a line shows counts with the probability of what it shows: the status value (not the
     * slot drawn), a duration or size by the mass of its rounded value, the path's number only where the template
     * prints one, the padding by its words and by the chance that the drawn length stops after exactly those words.
     * The mean thus estimates the entropy of the lines: no lossless encoding stores them in fewer bits per line on
     * average. Metadata (a {@code trace_id} is 128 random bits) and timestamps are not counted here.
     *
     * @param samples lines to average over (a few hundred thousand give three significant digits)
     * @param seed the draws' seed
     */
    public double lineInformationBits(int samples, long seed) {
        if (samples < 1) {
            throw new IllegalArgumentException("samples must be at least 1, got " + samples);
        }
        SplittableRandom random = new SplittableRandom(seed);
        Information information = new Information(config.medianLineLength());
        for (int i = 0; i < samples; i++) {
            String level = streamLabels.get(random.nextInt(streamLabels.size())).get("level");
            line(random, level, config.medianLineLength(), information);
        }
        return information.bits / samples;
    }

    /** A line with its self-information in bits ({@link #lineInformationBits} averages these). */
    record InformedLine(String line, double bits) {}

    /** One line of a stream at {@code level}, drawn as a lane draws it, with its self-information. */
    InformedLine informedLine(SplittableRandom random, String level) {
        Information information = new Information(config.medianLineLength());
        String line = line(random, level, config.medianLineLength(), information);
        return new InformedLine(line, information.bits);
    }

    /** Returns lane {@code index} of {@code laneCount}; each lane owns a disjoint share of the streams. */
    public Lane lane(int index, int laneCount, InstantSource clock) {
        if (laneCount < 1 || laneCount > config.streams()) {
            throw new IllegalArgumentException("lane count must be in [1, streams=" + config.streams()
                    + "] so every lane owns a stream, got " + laneCount);
        }
        if (index < 0 || index >= laneCount) {
            throw new IllegalArgumentException("lane index must be in [0, " + laneCount + "), got " + index);
        }
        return new Lane(index, laneCount, java.util.Objects.requireNonNull(clock, "clock is null"));
    }

    /** The batch sequence of one lane. Not thread-safe: confine each lane to one thread. */
    public final class Lane {
        private final int index;
        private final int laneCount;
        private final InstantSource clock;
        private final int[] streams;
        private final long[] lastTimestampNanos;
        private long sequence;

        private Lane(int index, int laneCount, InstantSource clock) {
            this.index = index;
            this.laneCount = laneCount;
            this.clock = clock;
            this.streams = java.util.stream.IntStream.range(0, config.streams())
                    .filter(i -> i % laneCount == index).toArray();
            this.lastTimestampNanos = new long[streams.length];
        }

        /** Generates the lane's next batch of {@code batchSize} lines. */
        public PushBatch next() {
            SplittableRandom random = new SplittableRandom(mix(config.seed(), index, laneCount, sequence++));
            java.time.Instant now = clock.instant();
            long nowNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
            Map<Integer, List<LogEntry>> byStream = new LinkedHashMap<>();
            int needleIndex = random.nextInt(config.batchSize());
            Needle needle = null;
            for (int n = 0; n < config.batchSize(); n++) {
                int slot = random.nextInt(streams.length);
                int stream = streams[slot];
                long timestamp = Math.max(nowNanos, lastTimestampNanos[slot] + 1);
                lastTimestampNanos[slot] = timestamp;
                Map<String, String> labels = streamLabels.get(stream);
                LogEntry entry = entry(random, labels.get("level"), timestamp);
                byStream.computeIfAbsent(stream, k -> new ArrayList<>()).add(entry);
                if (n == needleIndex) {
                    needle = new Needle(labels, entry.traceId(), entry.line(), timestamp);
                }
            }
            List<LogStream> result = new ArrayList<>(byStream.size());
            byStream.forEach((stream, entries) -> result.add(new LogStream(streamLabels.get(stream), entries)));
            return new PushBatch(result, needle);
        }
    }

    private LogEntry entry(SplittableRandom random, String level, long timestampNanos) {
        Map<String, String> metadata = new TreeMap<>();
        metadata.put(TRACE_ID, hex(random.nextLong()) + hex(random.nextLong()));
        if (config.userIds()) {
            metadata.put(USER_ID, "u" + (int) Math.floor(Math.pow(random.nextDouble(), 3) * 100_000));
            metadata.put(SESSION_ID, hex(random.nextLong()));
        }
        return new LogEntry(timestampNanos, line(random, level, config.medianLineLength(), null), metadata);
    }

    /** One line; its choices' self-information is added to {@code information} unless that is null. */
    private static String line(SplittableRandom random, String level, int medianLineLength, Information information) {
        int targetLength = (int) Math.max(MIN_LINE_LENGTH, Math.min(MAX_LINE_FACTOR * medianLineLength,
                medianLineLength * Math.exp(LINE_LENGTH_SIGMA * gaussian(random))));
        boolean rare = random.nextInt(RARE_LINE_ODDS) == 0;
        Information info = information == null ? Information.NONE : information;
        info.chose(rare ? 1.0 / RARE_LINE_ODDS : 1.0 - 1.0 / RARE_LINE_ODDS);
        if (rare) {
            String phrase = RARE_PHRASES.get(random.nextInt(RARE_PHRASES.size()));
            int worker = random.nextInt(16);
            int volume = random.nextInt(1000);
            info.chose(1.0 / RARE_PHRASES.size() / 16 / 1000);
            return pad(new StringBuilder(level.toUpperCase(java.util.Locale.ROOT)).append(" [worker-")
                    .append(worker).append("] ").append(phrase).append(" on volume vol-")
                    .append(volume), targetLength, random, " ", "", info, 0);
        }
        int methodIndex = weighted(random, METHOD_WEIGHTS);
        String method = METHODS[methodIndex];
        String template = PATHS[random.nextInt(PATHS.length)];
        String path = String.format(java.util.Locale.ROOT, template, random.nextInt(100_000));
        int[] statuses = switch (level) {
            case "error" -> ERROR_STATUS;
            case "warn" -> WARN_STATUS;
            default -> OK_STATUS;
        };
        int status = statuses[random.nextInt(statuses.length)];
        long durationMillis = Math.max(1, Math.round(25 * Math.exp(1.1 * gaussian(random))));
        long bytes = Math.max(0, Math.round(4_000 * Math.exp(1.3 * gaussian(random))));
        int format = random.nextInt(100);
        if (information != null) {
            if (format < 80) { // plain lines show no method, path or status
                info.chose(share(METHOD_WEIGHTS, methodIndex) / PATHS.length / (template.contains("%d") ? 100_000 : 1));
                info.chose(count(statuses, status) / (double) statuses.length);
            }
            info.chose(Information.roundedLogNormalMass(25, 1.1, durationMillis, 1));
            info.chose(Information.roundedLogNormalMass(4_000, 1.3, bytes, 0));
            info.chose((format < 45 ? 45 : format < 80 ? 35 : 20) / 100.0);
        }
        if (format < 45) {
            int callerLine = 40 + random.nextInt(400);
            info.chose(1.0 / 400);
            StringBuilder line = new StringBuilder(targetLength + 32).append("level=").append(level)
                    .append(" msg=\"").append(method).append(' ').append(path).append(" completed\"")
                    .append(" method=").append(method).append(" path=").append(path)
                    .append(" status=").append(status).append(" duration_ms=").append(durationMillis)
                    .append(" bytes=").append(bytes).append(" caller=handler.go:").append(callerLine);
            return pad(line, targetLength, random, " detail=\"", "\"", info, 0);
        }
        if (format < 80) {
            StringBuilder line = new StringBuilder(targetLength + 32).append("{\"level\":\"").append(level)
                    .append("\",\"msg\":\"request completed\",\"method\":\"").append(method)
                    .append("\",\"path\":\"").append(path).append("\",\"status\":").append(status)
                    .append(",\"duration_ms\":").append(durationMillis).append(",\"bytes\":").append(bytes);
            return pad(line, targetLength - 1, random, ",\"detail\":\"", "\"", info, -1) + "}";
        }
        int worker = random.nextInt(16);
        int message = random.nextInt(PLAIN_MESSAGES.length);
        info.chose(1.0 / 16 / PLAIN_MESSAGES.length);
        StringBuilder line = new StringBuilder(targetLength + 32)
                .append(level.toUpperCase(java.util.Locale.ROOT)).append(" [worker-").append(worker)
                .append("] ").append(PLAIN_MESSAGES[message]).append(" in ")
                .append(durationMillis).append("ms, ").append(bytes).append(" bytes");
        return pad(line, targetLength, random, " - ", "", info, 0);
    }

    /**
     * Pads {@code line} with words up to {@code target} characters ({@code target} is the drawn length plus {@code
     * shift}); {@code information} gets the words and the chance that the drawn length stops after exactly them.
     */
    private static String pad(StringBuilder line, int target, SplittableRandom random, String open, String close,
            Information information, int shift) {
        int fixed = line.length() + open.length() + close.length();
        if (fixed >= target) {
            information.chose(information.targetBelow(fixed - shift + 1));
            return line.toString();
        }
        line.append(open);
        boolean first = true;
        int before = line.length();
        while (line.length() + close.length() < target) {
            before = line.length();
            if (!first) {
                line.append(' ');
            }
            line.append(WORDS[random.nextInt(WORDS.length)]);
            information.chose(1.0 / WORDS.length);
            first = false;
        }
        // the loop stopped after this word: the drawn length lies in (before + close, after + close] less the shift
        int after = line.length();
        information.chose(information.targetBelow(after + close.length() - shift + 1)
                - information.targetBelow(before + close.length() - shift + 1));
        return line.append(close).toString();
    }

    private static double share(int[] weights, int index) {
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        return weights[index] / (double) total;
    }

    private static int count(int[] values, int value) {
        int n = 0;
        for (int v : values) {
            n += v == value ? 1 : 0;
        }
        return n;
    }

    private static int weighted(SplittableRandom random, int[] weights) {
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        int pick = random.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            pick -= weights[i];
            if (pick < 0) {
                return i;
            }
        }
        throw new IllegalStateException("BUG: weighted pick past the last weight");
    }

    private static double gaussian(SplittableRandom random) {
        // Box-Muller; SplittableRandom has no nextGaussian in Java 17.
        double u = 1.0 - random.nextDouble();
        double v = random.nextDouble();
        return Math.sqrt(-2.0 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }

    private static String hex(long value) {
        String digits = Long.toHexString(value);
        return "0".repeat(16 - digits.length()) + digits;
    }

    /**
     * Self-information of the choices lines show, summed in bits; the probabilities of the drawn quantities come
     * from the normal distribution they are drawn from. {@link #NONE} ignores every choice (plain generation).
     * Not thread-safe.
     */
    static class Information {
        static final Information NONE = new Information(1) {
            @Override
            void chose(double probability) {}

            @Override
            double targetBelow(double length) {
                return 1;
            }
        };

        private final int medianLineLength;
        double bits;

        Information(int medianLineLength) {
            this.medianLineLength = medianLineLength;
        }

        void chose(double probability) {
            if (!(probability > 0 && probability <= 1)) {
                throw new IllegalStateException("BUG: a shown choice of probability " + probability);
            }
            bits -= Math.log(probability) / Math.log(2);
        }

        /**
         * P(T &lt; length) for the drawn target length T = (int) clamp(median e^(sigma N), MIN_LINE_LENGTH, MAX_LINE_FACTOR
         * median), {@code length} an integer: T &lt; length exactly when the clamped draw is.
         */
        double targetBelow(double length) {
            if (length <= MIN_LINE_LENGTH) {
                return 0;
            }
            if (length > MAX_LINE_FACTOR * medianLineLength) {
                return 1;
            }
            return normalBelow(Math.log(length / medianLineLength) / LINE_LENGTH_SIGMA);
        }

        /** P(max(min, round(median e^(sigma N))) = value) for N standard normal. */
        static double roundedLogNormalMass(double median, double sigma, long value, long min) {
            double upper = normalBelow(Math.log((value + 0.5) / median) / sigma);
            return value <= min ? upper : upper - normalBelow(Math.log((value - 0.5) / median) / sigma);
        }

        /** P(N &lt; z) for N standard normal, accurate in the tails (erfc, not 1 - erf). */
        private static double normalBelow(double z) {
            return 0.5 * org.apache.commons.math3.special.Erf.erfc(-z / Math.sqrt(2));
        }
    }

    private static long mix(long seed, int lane, int laneCount, long sequence) {
        long h = seed * 0x9E3779B97F4A7C15L + lane;
        h = (h ^ (h >>> 29)) * 0xBF58476D1CE4E5B9L + laneCount;
        h = (h ^ (h >>> 32)) * 0x94D049BB133111EBL + sequence;
        return h ^ (h >>> 31);
    }
}
