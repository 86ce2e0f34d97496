package io.logbloom.chunks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Random streams for columnar format tests: unicode, astral, empty lines, missing and empty metadata, hex ids. */
final class ColumnarTestData {
    private static final String[] WORDS = {"GET", "POST", "", "ürün", "日本語", "ошибка", "😀🎉", "\u0000", "a\nb",
        "level=info", "{\"k\":1}", "x"};
    private static final String[] KEYS = {"trace_id", "user", "region", "empty", "pod", "k5", "k6", "k7"};

    private ColumnarTestData() {}

    /** {@code streams} streams of up to {@code maxRows} rows each, keyed by labels, rows in append order. */
    static Map<Labels, List<LogEntry>> streams(Random random, int streams, int maxRows) {
        Map<Labels, List<LogEntry>> result = new LinkedHashMap<>();
        for (int s = 0; s < streams; s++) {
            Labels labels = Labels.of("job", "j" + random.nextInt(3), "pod", "p-" + s);
            int rows = 1 + random.nextInt(maxRows);
            List<LogEntry> entries = new ArrayList<>(rows);
            long ts = 1_700_000_000_000_000_000L + random.nextInt(1000);
            boolean unordered = random.nextInt(4) == 0;
            for (int i = 0; i < rows; i++) {
                ts += random.nextInt(3) == 0 ? 0 : random.nextInt(1_000_000);
                long at = unordered ? ts - random.nextInt(5_000_000) : ts;
                entries.add(new LogEntry(at, line(random), metadata(random)));
            }
            result.put(labels, entries);
        }
        return result;
    }

    static String line(Random random) {
        int words = random.nextInt(10) == 0 ? 0 : random.nextInt(30);
        StringBuilder sb = new StringBuilder();
        for (int w = 0; w < words; w++) {
            if (w > 0) {
                sb.append(' ');
            }
            sb.append(WORDS[random.nextInt(WORDS.length)]);
        }
        return sb.toString();
    }

    static List<Label> metadata(Random random) {
        List<Label> labels = new ArrayList<>();
        for (String key : KEYS) {
            if (random.nextInt(3) == 0) {
                continue;
            }
            String value = switch (key) {
                case "trace_id" -> hex(random, 16, random.nextInt(20) == 0);
                case "user" -> "user-" + random.nextInt(4);
                case "region" -> "eu-west-1";
                case "empty" -> "";
                case "pod" -> hex(random, 1 + random.nextInt(4), false);
                default -> line(random);
            };
            labels.add(new Label(key, value));
        }
        java.util.Collections.shuffle(labels, random);
        return labels;
    }

    static String hex(Random random, int bytes, boolean upper) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < bytes; i++) {
            sb.append(String.format(upper ? "%02X" : "%02x", random.nextInt(256)));
        }
        return sb.toString();
    }

    /** What a reader must return for {@code entries}: stably sorted by time, metadata sorted by key. */
    static List<LogEntry> expected(List<LogEntry> entries) {
        List<LogEntry> sorted = new ArrayList<>();
        for (LogEntry entry : entries) {
            List<Label> metadata = new ArrayList<>(entry.metadata());
            metadata.sort(Comparator.comparing(Label::name));
            sorted.add(new LogEntry(entry.timestampNanos(), entry.line(), metadata));
        }
        sorted.sort(Comparator.comparingLong(LogEntry::timestampNanos));
        return sorted;
    }

    static Map<Labels, ColumnarRows> rows(Map<Labels, List<LogEntry>> streams) {
        Map<Labels, ColumnarRows> rows = new LinkedHashMap<>();
        streams.forEach((labels, entries) -> rows.put(labels, ColumnarRows.of(entries)));
        return rows;
    }

    /** The lines as one {@link ColumnarLineTokens} payload (as the writer encodes a block's line column). */
    static byte[] tokenizedPayload(List<String> lines) {
        return tokenizedPayload(lines, null);
    }

    /**
     * The lines as one {@link ColumnarLineTokens} payload, their words collected into {@code words} (when not null,
     * reset first).
     */
    static byte[] tokenizedPayload(List<String> lines, LineWords words) {
        ColumnarRows rows = new ColumnarRows();
        for (String line : lines) {
            rows.append(0, line, List.of());
        }
        int[] order = new int[rows.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        ByteSink out = new ByteSink(1024);
        try (com.github.luben.zstd.ZstdCompressCtx zstd = new com.github.luben.zstd.ZstdCompressCtx()) {
            if (words != null) {
                words.reset();
            }
            new ColumnarLineTokens().encode(rows, order, 0, order.length, zstd, out, words);
        }
        return out.toByteArray();
    }
}
