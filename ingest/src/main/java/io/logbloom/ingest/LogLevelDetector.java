package io.logbloom.ingest;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Loki's {@code discover_log_levels} (pkg/distributor/level_detection.go): the structured-metadata
 * value {@code detected_level} of an entry, taken from the first source that has one:
 * <ol>
 *   <li>a stream label named in {@code log_level_fields} (value kept as is);</li>
 *   <li>a structured-metadata field named there (value kept as is);</li>
 *   <li>OTLP {@code severity_number} metadata: 0 unknown, 1–4 trace, 5–8 debug, 9–12 info, 13–16 warn,
 *       17–20 error, 21–24 fatal, anything else unknown (an unparsable number counts as info);</li>
 *   <li>the line: a JSON object's top-level level field, else the first logfmt level field, mapped
 *       case-insensitively (trace/trc, debug/dbg, info/inf, warn/wrn/warning, error/err, critical,
 *       fatal); when the field is missing or its value unknown, or the line is neither JSON nor
 *       logfmt, a keyword search in Loki's order: info, error, warn, critical:, debug:, else unknown.</li>
 * </ol>
 * Thread-safe (immutable).
 */
public final class LogLevelDetector {
    /** The structured-metadata name Loki and Grafana Logs Drilldown use. */
    public static final String DETECTED_LEVEL = "detected_level";
    /** The metadata name of an OTLP record's severity number (see {@link OtlpMapper}). */
    public static final String SEVERITY_NUMBER = "severity_number";

    /** The words that name a level, each as ASCII bytes (which match a UTF-8 line byte for byte). */
    private record Keywords(String level, List<byte[]> words) {
        static Keywords of(String level, String... words) {
            return new Keywords(level, Arrays.stream(words).map(w -> w.getBytes(StandardCharsets.US_ASCII)).toList());
        }
    }

    /** Loki's keyword fallback: the first level with a word in the line, in this order. */
    private static final List<Keywords> KEYWORDS = List.of(
            Keywords.of("info", "info", "INFO"),
            Keywords.of("error", "err:", "ERR:", "error", "ERROR"),
            Keywords.of("warn", "warn:", "WARN:", "warning", "WARNING"),
            Keywords.of("critical", "CRITICAL:", "critical:"),
            Keywords.of("debug", "debug:", "DEBUG:"));

    private final Set<String> levelFields;

    /** A detector reading the fields {@code levelFields} (Loki's {@code log_level_fields}). */
    public LogLevelDetector(List<String> levelFields) {
        this.levelFields = Set.copyOf(levelFields);
    }

    /** The level a stream label of {@code streamLabels} names (first source of {@link #detect}), or null. */
    public String streamLevel(List<Label> streamLabels) {
        return field(streamLabels);
    }

    /** The detected level of {@code entry} in a stream with labels {@code streamLabels}. */
    public String detect(List<Label> streamLabels, LogEntry entry) {
        String level = field(streamLabels);
        if (level != null) {
            return level;
        }
        level = field(entry.metadata());
        if (level != null) {
            return level;
        }
        String severity = entry.metadataValue(SEVERITY_NUMBER);
        if (severity != null && !severity.isEmpty()) {
            return fromSeverityNumber(severity);
        }
        return fromLine(entry.utf8Line());
    }

    private String field(List<Label> pairs) {
        for (Label l : pairs) {
            if (levelFields.contains(l.name())) {
                return l.value();
            }
        }
        return null;
    }

    /** OTLP severity number ranges (logs data model) to Loki's level names. */
    static String fromSeverityNumber(String text) {
        int n;
        try {
            n = Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            return "info";
        }
        if (n == 0) {
            return "unknown";
        } else if (n <= 4) {
            return n < 0 ? "unknown" : "trace";
        } else if (n <= 8) {
            return "debug";
        } else if (n <= 12) {
            return "info";
        } else if (n <= 16) {
            return "warn";
        } else if (n <= 20) {
            return "error";
        } else if (n <= 24) {
            return "fatal";
        }
        return "unknown";
    }

    /**
     * The level of a line, given as UTF-8, by Loki's rules (JSON field, logfmt field, then keywords): read from the
     * bytes, so a line pushed as protobuf is never decoded into a {@code String} for it.
     */
    String fromLine(byte[] line) {
        String value;
        if (LineFields.isJson(line)) {
            value = LineFields.firstTopLevelJsonValue(line, levelFields::contains);
        } else if (indexOf(line, (byte) '=') >= 0) {
            value = LineFields.firstLogfmtValue(line, levelFields::contains);
        } else {
            return fromKeywords(line);
        }
        String level = value == null ? null : normalize(value);
        return level != null ? level : fromKeywords(line);
    }

    private static String normalize(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "trace", "trc" -> "trace";
            case "debug", "dbg" -> "debug";
            case "info", "inf" -> "info";
            case "warn", "wrn", "warning" -> "warn";
            case "error", "err" -> "error";
            case "critical" -> "critical";
            case "fatal" -> "fatal";
            default -> null;
        };
    }

    /** Loki's keyword fallback, in its order (info before error, so "info ... error" is info), over UTF-8. */
    static String fromKeywords(byte[] line) {
        for (Keywords k : KEYWORDS) {
            for (byte[] word : k.words()) {
                if (contains(line, word)) {
                    return k.level();
                }
            }
        }
        return "unknown";
    }

    private static int indexOf(byte[] line, byte b) {
        for (int i = 0; i < line.length; i++) {
            if (line[i] == b) {
                return i;
            }
        }
        return -1;
    }

    private static boolean contains(byte[] line, byte[] word) {
        byte first = word[0];
        for (int i = 0, last = line.length - word.length; i <= last; i++) {
            if (line[i] == first && Arrays.equals(line, i, i + word.length, word, 0, word.length)) {
                return true;
            }
        }
        return false;
    }
}
