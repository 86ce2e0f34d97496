package io.logbloom.chunks;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Deterministic generated log entries for tests: plain, logfmt and JSON lines, unicode, metadata. */
final class TestLogs {
    private static final String[] WORDS = {"GET", "POST", "/api/v1/push", "200", "500", "ürün", "日本語", "ошибка",
        "emoji 🚀", "timeout", "user=42", "\"quoted\"", "tab\there", ""};

    private TestLogs() {}

    /** The i-th generated entry of a stream seeded by {@code seed}, at {@code timestampNanos}. */
    static LogEntry entry(Random random, long timestampNanos, int i) {
        String line = switch (i % 3) {
            case 0 -> "level=info msg=\"" + word(random) + "\" i=" + i + " trace_id=" + Long.toHexString(random.nextLong());
            case 1 -> "{\"level\":\"warn\",\"msg\":\"" + word(random) + "\",\"i\":" + i + "}";
            default -> word(random) + " " + word(random) + " " + i;
        };
        List<Label> metadata = new ArrayList<>();
        int pairs = random.nextInt(4);
        for (int p = 0; p < pairs; p++) {
            switch (p) {
                case 0 -> metadata.add(new Label("trace_id", Long.toHexString(random.nextLong() & 0xFFFFL)));
                case 1 -> metadata.add(new Label("pod", "pod-" + random.nextInt(5)));
                default -> metadata.add(new Label("ü_key", "värde " + random.nextInt(3)));
            }
        }
        return new LogEntry(timestampNanos, line, metadata);
    }

    private static String word(Random random) {
        return WORDS[random.nextInt(WORDS.length)];
    }

    /** {@code count} entries with non-decreasing timestamps (some equal) from {@code startNanos}. */
    static List<LogEntry> sorted(long seed, int count, long startNanos) {
        Random random = new Random(seed);
        List<LogEntry> entries = new ArrayList<>(count);
        long ts = startNanos;
        for (int i = 0; i < count; i++) {
            ts += random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(1_000_000);
            entries.add(entry(random, ts, i));
        }
        return entries;
    }
}
