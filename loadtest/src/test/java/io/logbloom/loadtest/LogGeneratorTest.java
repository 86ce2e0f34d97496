package io.logbloom.loadtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class LogGeneratorTest {
    private static final InstantSource FIXED = InstantSource.fixed(Instant.parse("2026-01-02T03:04:05Z"));

    private static List<PushBatch> batches(long seed, int count) {
        LogGenerator.Lane lane = new LogGenerator(new GeneratorConfig(seed, "r1", 20, 200, true)).lane(0, 2, FIXED);
        return java.util.stream.IntStream.range(0, count).mapToObj(i -> lane.next()).toList();
    }

    @Test
    void next_sameSeed_sameBatches() {
        assertThat(batches(7, 5)).isEqualTo(batches(7, 5));
    }

    @Test
    void next_otherSeed_otherLines() {
        assertThat(batches(8, 1).get(0).streams()).isNotEqualTo(batches(7, 1).get(0).streams());
    }

    @Test
    void streamLabels_haveRunJobAndCardinality() {
        LogGenerator generator = new LogGenerator(new GeneratorConfig(1, "run-a", 50, 10, false));
        assertThat(generator.streamLabels()).hasSize(50);
        assertThat(new HashSet<>(generator.streamLabels())).hasSize(50);
        for (Map<String, String> labels : generator.streamLabels()) {
            assertThat(labels).containsOnlyKeys("run", "job", "namespace", "service", "pod", "level")
                    .containsEntry("run", "run-a").containsEntry("job", "loadtest");
            assertThat(labels.get("level")).isIn("debug", "info", "warn", "error");
        }
    }

    @Test
    void entries_carryUniqueTraceIdsAndOptionalUserIds() {
        Set<String> traceIds = new HashSet<>();
        int lines = 0;
        for (PushBatch batch : batches(3, 10)) {
            for (LogStream stream : batch.streams()) {
                for (LogEntry entry : stream.entries()) {
                    assertThat(entry.structuredMetadata()).containsOnlyKeys("trace_id", "user_id", "session_id");
                    assertThat(entry.traceId()).matches("[0-9a-f]{32}");
                    assertThat(entry.line().length()).isBetween(40, 2_100);
                    traceIds.add(entry.traceId());
                    lines++;
                }
            }
        }
        assertThat(lines).isEqualTo(2_000);
        assertThat(traceIds).hasSize(lines);
        LogGenerator plain = new LogGenerator(new GeneratorConfig(3, "r1", 5, 10, false));
        assertThat(plain.lane(0, 1, FIXED).next().streams().get(0).entries().get(0).structuredMetadata())
                .containsOnlyKeys("trace_id");
    }

    @Test
    void lines_mixFormatsWithHttpFields() {
        List<String> lines = batches(5, 10).stream().flatMap(b -> b.streams().stream())
                .flatMap(s -> s.entries().stream()).map(LogEntry::line).toList();
        assertThat(lines).anyMatch(l -> l.startsWith("level=") && l.contains(" duration_ms=") && l.contains(" status="));
        assertThat(lines).anyMatch(l -> l.startsWith("{\"level\":") && l.endsWith("}") && l.contains("\"method\":"));
        assertThat(lines).anyMatch(l -> l.matches("^(DEBUG|INFO|WARN|ERROR) \\[worker-\\d+].*"));
        assertThat(lines.stream().filter(l -> l.startsWith("{")))
                .allSatisfy(l -> assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(l).path("status").isInt()).isTrue());
    }

    @Test
    void lineLength_followsTheConfiguredMedian() {
        for (int median : new int[] {160, 400, 1_000}) {
            List<Integer> lengths = new java.util.ArrayList<>(new LogGenerator(new GeneratorConfig(6, "r", 4, 4_000, false, median))
                    .lane(0, 1, FIXED).next().streams().stream().flatMap(s -> s.entries().stream())
                    .map(e -> e.line().length()).sorted().toList());
            assertThat(lengths.get(lengths.size() / 2)).as("median for %d", median).isBetween((int) (median * 0.85), (int) (median * 1.2));
            assertThat(lengths.get(lengths.size() - 1)).isLessThanOrEqualTo(median * 4 + 40);
        }
        assertThatThrownBy(() -> new GeneratorConfig(1, "r", 1, 1, false, 10)).hasMessageContaining("got 10");
    }

    @Test
    void timestamps_increasePerStreamAcrossBatches_evenWithAStoppedClock() {
        Map<Map<String, String>, Long> last = new HashMap<>();
        for (PushBatch batch : batches(9, 20)) {
            for (LogStream stream : batch.streams()) {
                for (LogEntry entry : stream.entries()) {
                    Long previous = last.put(stream.labels(), entry.timestampNanos());
                    if (previous != null) {
                        assertThat(entry.timestampNanos()).isGreaterThan(previous);
                    }
                }
            }
        }
    }

    @Test
    void lanes_ownDisjointStreams() {
        LogGenerator generator = new LogGenerator(new GeneratorConfig(2, "r1", 10, 500, false));
        Set<Map<String, String>> lane0 = new HashSet<>();
        generator.lane(0, 3, FIXED).next().streams().forEach(s -> lane0.add(s.labels()));
        Set<Map<String, String>> lane1 = new HashSet<>();
        generator.lane(1, 3, FIXED).next().streams().forEach(s -> lane1.add(s.labels()));
        assertThat(lane0).hasSize(4).doesNotContainAnyElementsOf(lane1);
        assertThat(lane1).hasSize(3);
    }

    @Test
    void needle_isOneLineOfTheBatch() {
        PushBatch batch = batches(4, 1).get(0);
        Needle needle = batch.needle();
        assertThat(batch.streams()).anySatisfy(stream -> {
            assertThat(stream.labels()).isEqualTo(needle.labels());
            assertThat(stream.entries()).anyMatch(e -> e.traceId().equals(needle.traceId())
                    && e.line().equals(needle.line()) && e.timestampNanos() == needle.timestampNanos());
        });
        assertThat(needle.query()).startsWith("{").contains("run=\"r1\"").endsWith("| trace_id=\"" + needle.traceId() + "\"");
    }

    @Test
    void config_badValues_rejectedNamingTheValue() {
        assertThatThrownBy(() -> new GeneratorConfig(1, "bad id!", 1, 1, false)).hasMessageContaining("'bad id!'");
        assertThatThrownBy(() -> new GeneratorConfig(1, "r", 0, 1, false)).hasMessageContaining("got 0");
        assertThatThrownBy(() -> new GeneratorConfig(1, "r", 1, 100_001, false)).hasMessageContaining("100001");
        LogGenerator generator = new LogGenerator(new GeneratorConfig(1, "r", 2, 1, false));
        assertThatThrownBy(() -> generator.lane(0, 3, FIXED)).hasMessageContaining("got 3");
    }

    /**
     * The lines a seed gives do not change from version to version (data sets and their manifests are regenerated
     * from seeds): a hash of 300 batches' lines, as the generator gave them before its information account existed.
     */
    @Test
    void next_fixedSeed_sameLinesAsEver() {
        LogGenerator.Lane lane = new LogGenerator(new GeneratorConfig(7, "x", 100, 1000, false, 85)).lane(0, 1,
                () -> Instant.ofEpochSecond(1_760_000_000L));
        long hash = 0;
        for (int i = 0; i < 300; i++) {
            for (LogStream stream : lane.next().streams()) {
                for (LogEntry entry : stream.entries()) {
                    hash = hash * 31 + entry.line().hashCode() * 17 + entry.toString().hashCode();
                }
            }
        }
        assertThat(hash).isEqualTo(4348167806905231442L);
    }

    /**
     * The information account of a line stays below what a general-purpose compressor needs for the same lines (no
     * code beats the entropy on average over many lines): an account that counted draws a line does not show (a
     * status slot rather than its value, the number of a path template that prints none) or counted a choice
     * twice would exceed it on lines this compressible.
     */
    @Test
    void lineInformationBits_belowWhatDeflateStoresTheLinesIn() throws Exception {
        LogGenerator generator = new LogGenerator(new GeneratorConfig(3, "x", 100, 1000, false, 85));
        LogGenerator.Lane lane = generator.lane(0, 1, FIXED);
        java.io.ByteArrayOutputStream compressed = new java.io.ByteArrayOutputStream();
        long lines = 0;
        try (java.util.zip.DeflaterOutputStream out = new java.util.zip.DeflaterOutputStream(compressed,
                new java.util.zip.Deflater(9))) {
            while (lines < 50_000) {
                for (LogStream stream : lane.next().streams()) {
                    for (LogEntry entry : stream.entries()) {
                        out.write((entry.line() + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        lines++;
                    }
                }
            }
        }
        double deflateBits = compressed.size() * 8.0 / lines;
        double information = generator.lineInformationBits(50_000, 1);
        // path number, duration and size alone carry ~32 bits per line (16.6 x 8/12 + 6.8 + 14.4)
        assertThat(information).isBetween(32.0, deflateBits);
        assertThat(generator.lineInformationBits(50_000, 1)).isEqualTo(information);
    }

    /** Longer lines are padded with more words: an account that left out the padding would not grow with them. */
    @Test
    void lineInformationBits_growWithTheLinesPadding() {
        double short85 = new LogGenerator(new GeneratorConfig(3, "x", 100, 1000, false, 85))
                .lineInformationBits(20_000, 1);
        double long300 = new LogGenerator(new GeneratorConfig(3, "x", 100, 1000, false, 300))
                .lineInformationBits(20_000, 1);
        // about 36 more words per line at a 300-byte median than at 85, each one of 46 (5.5 bits)
        assertThat(long300 - short85).isGreaterThan(150);
    }

    /** The masses the account takes are distributions: rounded durations and sizes, and the drawn line length. */
    @Test
    void information_massesSumToOne() {
        double durations = 0;
        for (long d = 1; d < 100_000; d++) { // 1e5 ms is 7.5 sigmas out
            durations += LogGenerator.Information.roundedLogNormalMass(25, 1.1, d, 1);
        }
        assertThat(durations).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
        double sizes = 0;
        for (long b = 0; b < 1_000_000; b++) { // 1e6 bytes is 4.2 sigmas out: 1e-5 of the mass lies beyond
            sizes += LogGenerator.Information.roundedLogNormalMass(4_000, 1.3, b, 0);
        }
        assertThat(sizes).isCloseTo(1.0, org.assertj.core.data.Offset.offset(2e-5));
        LogGenerator.Information lengths = new LogGenerator.Information(85);
        assertThat(lengths.targetBelow(40)).isZero(); // lines are at least 40 long
        assertThat(lengths.targetBelow(41)).isGreaterThan(0);
        assertThat(lengths.targetBelow(340)).isLessThan(1); // at most 4 x 85, which has the clamped mass
        assertThat(lengths.targetBelow(341)).isEqualTo(1.0);
        assertThat(lengths.targetBelow(86)).isCloseTo(0.5, org.assertj.core.data.Offset.offset(0.01));
    }

    /**
     * Each line's account equals its self-information worked out from the line as shown: parsed back into its
     * fields, every field costs the probability of the value it shows (a status by its share among the level's
     * statuses, the path number only where the template prints one, the padding by its words and the chance that
     * the drawn length stops after exactly them). Rare lines are left out; they are one in 2,000.
     */
    @Test
    void informedLine_bitsAreTheSelfInformationOfWhatTheLineShows() {
        java.util.regex.Pattern logfmt = java.util.regex.Pattern.compile("level=(\\w+) msg=\"(\\w+) (\\S+) completed\" "
                + "method=\\w+ path=\\S+ status=(\\d+) duration_ms=(\\d+) bytes=(\\d+) caller=handler\\.go:\\d+"
                + "(?: detail=\"([^\"]*)\")?");
        java.util.regex.Pattern json = java.util.regex.Pattern.compile("\\{\"level\":\"\\w+\",\"msg\":\"request completed\","
                + "\"method\":\"(\\w+)\",\"path\":\"(\\S+)\",\"status\":(\\d+),\"duration_ms\":(\\d+),\"bytes\":(\\d+)"
                + "(?:,\"detail\":\"([^\"]*)\")?}");
        java.util.regex.Pattern plain = java.util.regex.Pattern.compile("[A-Z]+ \\[worker-\\d+] [a-z ]+ in (\\d+)ms, (\\d+) bytes"
                + "(?: - (.*))?");
        Map<String, Double> methods = Map.of("GET", 0.60, "POST", 0.25, "PUT", 0.08, "DELETE", 0.05, "PATCH", 0.02);
        Map<String, Map<Integer, Double>> statuses = Map.of(
                "info", Map.of(200, 0.6, 201, 0.1, 204, 0.1, 301, 0.1, 304, 0.1),
                "warn", Map.of(400, 1 / 7.0, 401, 1 / 7.0, 403, 1 / 7.0, 404, 2 / 7.0, 409, 1 / 7.0, 429, 1 / 7.0),
                "error", Map.of(500, 0.25, 502, 0.25, 503, 0.25, 504, 0.25));
        int checked = 0;
        for (int median : new int[] {85, 160}) {
            LogGenerator generator = new LogGenerator(new GeneratorConfig(3, "x", 10, 100, false, median));
            LogGenerator.Information lengths = new LogGenerator.Information(median);
            java.util.SplittableRandom random = new java.util.SplittableRandom(11);
            for (String level : List.of("info", "warn", "error")) {
                for (int i = 0; i < 3000; i++) {
                    LogGenerator.InformedLine informed = generator.informedLine(random, level);
                    String line = informed.line();
                    double bits = -log2(1 - 1.0 / LogGenerator.RARE_LINE_ODDS);
                    java.util.regex.Matcher m;
                    if ((m = logfmt.matcher(line)).matches()) {
                        bits += request(methods.get(m.group(2)), m.group(3), statuses.get(level).get(
                                Integer.parseInt(m.group(4))), m.group(5), m.group(6), 0.45) - log2(1 / 400.0);
                        int base = m.group(7) == null ? line.length() : line.indexOf(" detail=\"");
                        bits += padding(lengths, base, " detail=\"", "\"", m.group(7), 0);
                    } else if ((m = json.matcher(line)).matches()) {
                        bits += request(methods.get(m.group(1)), m.group(2), statuses.get(level).get(
                                Integer.parseInt(m.group(3))), m.group(4), m.group(5), 0.35);
                        int base = m.group(6) == null ? line.length() - 1 : line.indexOf(",\"detail\":\"");
                        bits += padding(lengths, base, ",\"detail\":\"", "\"", m.group(6), -1);
                    } else if ((m = plain.matcher(line)).matches()) {
                        bits += -log2(0.20 / 16 / 8) - log2(LogGenerator.Information.roundedLogNormalMass(25, 1.1,
                                Long.parseLong(m.group(1)), 1)) - log2(LogGenerator.Information.roundedLogNormalMass(
                                4_000, 1.3, Long.parseLong(m.group(2)), 0));
                        int base = m.group(3) == null ? line.length() : line.indexOf(" - ");
                        bits += padding(lengths, base, " - ", "", m.group(3), 0);
                    } else {
                        assertThat(LogGenerator.RARE_PHRASES).as(line).anyMatch(line::contains);
                        continue;
                    }
                    assertThat(informed.bits()).as("%s line %s", level, line)
                            .isCloseTo(bits, org.assertj.core.data.Offset.offset(1e-6));
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(17_900);
    }

    /** Bits of an HTTP line's fields: method share, path (template of 12, number of 100,000 where printed), the rest. */
    private static double request(double methodShare, String path, double statusShare, String duration, String size,
            double formatShare) {
        boolean numbered = path.replaceFirst("^/api/v[12]/", "/").chars().anyMatch(Character::isDigit);
        return -log2(methodShare / 12 / (numbered ? 100_000 : 1)) - log2(statusShare)
                - log2(LogGenerator.Information.roundedLogNormalMass(25, 1.1, Long.parseLong(duration), 1))
                - log2(LogGenerator.Information.roundedLogNormalMass(4_000, 1.3, Long.parseLong(size), 0))
                - log2(formatShare);
    }

    /**
     * Bits of a padding of {@code words} (null: none) after {@code base} characters, between {@code open} and {@code
     * close}, for a target of the drawn length plus {@code shift}: the words, and the drawn length falling where the
     * padding stops exactly there.
     */
    private static double padding(LogGenerator.Information lengths, int base, String open, String close,
            String words, int shift) {
        int fixed = base + open.length() + close.length();
        if (words == null) {
            return -log2(lengths.targetBelow(fixed - shift + 1));
        }
        String[] w = words.split(" ");
        int after = base + open.length() + words.length();
        int before = after - w[w.length - 1].length() - (w.length > 1 ? 1 : 0);
        return w.length * log2(46) - log2(lengths.targetBelow(after + close.length() - shift + 1)
                - lengths.targetBelow(before + close.length() - shift + 1));
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
