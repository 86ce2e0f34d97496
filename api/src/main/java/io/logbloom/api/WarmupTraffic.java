package io.logbloom.api;

import com.google.protobuf.Timestamp;
import io.logbloom.ingest.proto.PushProto;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.xerial.snappy.Snappy;

/**
 * The synthetic traffic of the start-up warm-up: push bodies shaped like a log shipper's (100 streams,
 * 1000-line snappy-protobuf batches, logfmt, JSON and plain lines with HTTP fields, a unique
 * {@code trace_id} per line in structured metadata) and the queries a dashboard and an operator send
 * (needles by trace id, line-filter counts, logfmt filters, rates by label). Deterministic for a seed.
 *
 * <p>A few streams of every thousand lines are new ({@link #NEW_STREAMS_PER_BATCH}): a pod restarted, a deployment rolled. A
 * warm-up whose streams were all known after its first body compiled the push path as if a stream never arrived, and a
 * real server threw that code away at its first real push, whose streams are all new to it (C2 then compiled the
 * admission, the stream writer and the duplicate index again while the push ran).
 *
 * <p>Not thread-safe: one instance per warm-up.
 */
final class WarmupTraffic {
    /** Lines per push body, as Promtail's and the load-test harness' default batches. */
    static final int BATCH_LINES = 1000;
    /** Streams the lines are spread over. */
    static final int STREAMS = 100;
    /**
     * Streams that get a label set never pushed before, per {@value #BATCH_LINES} lines pushed (a smaller body renews
     * each with the chance of its share of them): a full body still holds mostly known streams, as a shipper's does.
     */
    static final int NEW_STREAMS_PER_BATCH = 2;
    /** Every this many queries one is a scan, the others are needles. */
    static final int NEEDLE_EVERY = 4;
    /** Distinct padding words. */
    static final int VOCABULARY = 300;
    private static final String[] LEVELS = {"debug", "info", "warn", "error"};
    private static final String[] SERVICES = {"api", "checkout", "cart", "search", "auth", "billing"};
    private static final String[] METHODS = {"GET", "GET", "GET", "POST", "PUT", "DELETE"};
    private static final String[] PATHS = {"/api/v1/users/", "/api/v1/orders/", "/api/v1/cart/", "/healthz"};
    private static final int[] STATUSES = {200, 200, 200, 201, 204, 304, 404, 429, 500, 503};
    /**
     * Words padding the lines: a few hundred, as a real service's logs have, so a block's token dictionary outgrows
     * one-byte codes as it does on real data (a warm-up on a dozen words compiled the readers for one-byte codes only,
     * and the first real query threw that code away).
     */
    private static final String[] WORDS = vocabulary();

    private final SplittableRandom random;
    private final long startNanos;
    private final List<String> traceIds = new ArrayList<>();
    /** How often each stream's pod was replaced: part of its labels. */
    private final int[] podGenerations = new int[STREAMS];
    private long sequence;

    /** Time between two lines pushed: 200 000 lines span 200 s. */
    static final long LINE_INTERVAL_NANOS = 1_000_000L;
    /** Time range of a scanning query over a window: about 2 000 lines. */
    static final long SCAN_WINDOW_NANOS = 2_000_000_000L;
    /**
     * Time range of a scanning query over everything: the first 20 000 lines. It covers whole blocks as a count over a
     * whole load does, while its cost and the heap it touches stay those of a small store however long the warm-up
     * pushes (over all of a settled warm-up's half a million lines, these scans left the heap grown to 330 MB and the
     * process at 553 MB resident after the warm-up, against 88 and 265 MB).
     */
    static final long WHOLE_SCAN_NANOS = 20_000 * LINE_INTERVAL_NANOS;
    /** Kinds of scanning query, sent in turn. */
    static final int SCAN_SHAPES = 7;

    /** Traffic whose lines are timestamped from {@code startNanos} on, {@link #LINE_INTERVAL_NANOS} apart. */
    WarmupTraffic(long seed, long startNanos) {
        this.random = new SplittableRandom(seed);
        this.startNanos = startNanos;
    }

    /** Labels selecting every warm-up stream. */
    static String selector() {
        return "{job=\"warmup\"}";
    }

    /** The next push body of {@code lines} lines: a snappy-compressed protobuf {@code PushRequest}. */
    byte[] nextBody(int lines) {
        if (sequence > 0) {
            for (int n = 0; n < NEW_STREAMS_PER_BATCH; n++) {
                if (random.nextInt(BATCH_LINES) < lines) {
                    podGenerations[random.nextInt(STREAMS)]++;
                }
            }
        }
        List<PushProto.StreamAdapter.Builder> streams = new ArrayList<>(STREAMS);
        for (int s = 0; s < STREAMS; s++) {
            streams.add(PushProto.StreamAdapter.newBuilder().setLabels("{job=\"warmup\", service=\""
                    + SERVICES[s % SERVICES.length] + "\", pod=\"pod-" + s + "-" + podGenerations[s] + "\", level=\""
                    + LEVELS[s % LEVELS.length] + "\"}"));
        }
        for (int i = 0; i < lines; i++) {
            int stream = random.nextInt(STREAMS);
            long ts = startNanos + sequence++ * LINE_INTERVAL_NANOS;
            String traceId = String.format(Locale.ROOT, "%016x%016x", random.nextLong(), random.nextLong());
            if (traceIds.size() < 10_000) {
                traceIds.add(traceId);
            }
            streams.get(stream).addEntries(PushProto.EntryAdapter.newBuilder()
                    .setTimestamp(Timestamp.newBuilder().setSeconds(ts / 1_000_000_000L).setNanos((int) (ts % 1_000_000_000L)))
                    .setLine(line(LEVELS[stream % LEVELS.length]))
                    .addStructuredMetadata(PushProto.LabelPairAdapter.newBuilder().setName("trace_id").setValue(traceId)));
        }
        PushProto.PushRequest.Builder request = PushProto.PushRequest.newBuilder();
        for (PushProto.StreamAdapter.Builder stream : streams) {
            if (stream.getEntriesCount() > 0) {
                request.addStreams(stream);
            }
        }
        try {
            return Snappy.compress(request.build().toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot snappy-compress a warm-up body", e);
        }
    }

    /** Timestamp of the last line pushed so far, plus one (an exclusive query end). */
    long endNanos() {
        return startNanos + Math.max(0, sequence - 1) * LINE_INTERVAL_NANOS + 1;
    }

    /**
     * Query {@code n}. Needles (all but every {@value #NEEDLE_EVERY}th query: the latency-sensitive path, and a cheap
     * one) look up trace ids already pushed, over everything pushed; the rest cycle through line-filter, parser and
     * metric queries, one cycle over a window of about 2 000 lines that moves back from the newest line (as a
     * dashboard's panels scan a slice), the next over the first lines pushed, whose blocks it covers whole (as an
     * operator's count over the last hours covers a load's), and so on.
     *
     * <p>Why both: a window that cuts through every block compiles only the paths for blocks straddling the range,
     * and the first real count over a whole load, whose blocks lie inside its range, then threw that code away and
     * waited for the compiler (a 3 M-line {@code |= "status=500"} count right after a start took 360-530 ms against
     * 230-330 ms warm).
     */
    WarmupQuery query(int n) {
        String sel = selector();
        long end = endNanos();
        if (n % NEEDLE_EVERY != 0 && !traceIds.isEmpty()) {
            return new WarmupQuery(sel + " | trace_id=\"" + traceIds.get((n * 7919) % traceIds.size()) + "\"",
                    false, startNanos, end, 1);
        }
        int scan = n / NEEDLE_EVERY;
        long from;
        long to;
        if (scan / SCAN_SHAPES % 2 == 0) {
            long windows = Math.max(1, (end - startNanos) / SCAN_WINDOW_NANOS);
            to = end - (scan % windows) * SCAN_WINDOW_NANOS;
            from = Math.max(startNanos, to - SCAN_WINDOW_NANOS);
        } else {
            from = startNanos;
            to = Math.min(end, startNanos + WHOLE_SCAN_NANOS);
        }
        // an instant query's range reaches back to the window's start: whole seconds, rounded up
        String range = "[" + Math.max(1, (to - from + 999_999_999L) / 1_000_000_000L) + "s]";
        return switch (scan % SCAN_SHAPES) {
            case 0 -> new WarmupQuery("sum(count_over_time(" + sel + range + "))", true, from, to, -1);
            case 1 -> new WarmupQuery("sum(count_over_time(" + sel + " |= \"status=500\" " + range + "))", true, from, to,
                    -1);
            case 2 -> new WarmupQuery(sel + " |= \"status=503\"", false, from, to, -1);
            case 3 -> new WarmupQuery("sum by (level) (count_over_time(" + sel + " | logfmt | bytes > 9000 " + range + "))",
                    true, from, to, -1);
            case 4 -> new WarmupQuery("sum by (service) (rate(" + sel + " |~ \"retry|timeout\" [1s]))", false, from, to,
                    -1);
            case 5 -> new WarmupQuery("sum by (level) (count_over_time(" + sel + " |= \"timeout\" " + range + "))",
                    true, from, to, -1);
            default -> new WarmupQuery(sel + " | json | status >= 500 | line_format \"{{.method}} {{.path}}\"", false,
                    from, to, -1);
        };
    }

    /**
     * One warm-up query.
     *
     * @param logql     the query
     * @param instant   whether it goes to {@code /query} at {@code toNanos} (else {@code /query_range})
     * @param fromNanos start of a range query
     * @param toNanos   end of a range query, the time of an instant one
     * @param lines     lines it must return, or -1 when any answer with status 200 will do
     */
    record WarmupQuery(String logql, boolean instant, long fromNanos, long toNanos, int lines) {}

    private String line(String level) {
        String method = METHODS[random.nextInt(METHODS.length)];
        String path = PATHS[random.nextInt(PATHS.length)] + random.nextInt(100_000);
        int status = STATUSES[random.nextInt(STATUSES.length)];
        int duration = 1 + random.nextInt(900);
        int bytes = random.nextInt(20_000);
        StringBuilder line = new StringBuilder(160);
        int format = random.nextInt(100);
        if (format < 45) {
            line.append("level=").append(level).append(" msg=\"").append(method).append(' ').append(path)
                    .append(" completed\" method=").append(method).append(" path=").append(path).append(" status=")
                    .append(status).append(" duration_ms=").append(duration).append(" bytes=").append(bytes);
        } else if (format < 80) {
            line.append("{\"level\":\"").append(level).append("\",\"msg\":\"request completed\",\"method\":\"")
                    .append(method).append("\",\"path\":\"").append(path).append("\",\"status\":").append(status)
                    .append(",\"duration_ms\":").append(duration).append(",\"bytes\":").append(bytes).append('}');
        } else {
            line.append(level.toUpperCase(Locale.ROOT)).append(" [worker-").append(random.nextInt(16)).append("] ")
                    .append(random.nextInt(10) == 0 ? "retrying request after timeout" : "cache refresh finished")
                    .append(" in ").append(duration).append("ms");
        }
        for (int w = random.nextInt(6); w > 0; w--) {
            line.append(' ').append(WORDS[random.nextInt(WORDS.length)]);
        }
        return line.toString();
    }

    /** {@value #VOCABULARY} distinct lower-case words of two or three syllables, the same on every run. */
    static String[] vocabulary() {
        String[] syllables = {"ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "zen", "bar", "dal", "fin", "gor", "hul",
            "jex", "pra", "quo", "wys"};
        String[] words = new String[VOCABULARY];
        int n = 0;
        for (int a = 0; a < syllables.length && n < VOCABULARY; a++) {
            for (int b = 0; b < syllables.length && n < VOCABULARY; b++) {
                words[n++] = syllables[a] + syllables[b] + (b % 3 == 0 ? syllables[(a + b) % syllables.length] : "");
            }
        }
        return words;
    }
}
