package io.logbloom.ingest;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
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
        return fromLine(entry.line());
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

    /** The level of a line by Loki's rules (JSON field, logfmt field, then keywords). */
    String fromLine(String line) {
        String value;
        if (LineFields.isJson(line)) {
            value = LineFields.firstTopLevelJsonValue(line, levelFields::contains);
        } else if (line.indexOf('=') >= 0) {
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

    /** Loki's keyword fallback, in its order (info before error, so "info ... error" is info). */
    static String fromKeywords(String line) {
        if (line.contains("info") || line.contains("INFO")) {
            return "info";
        }
        if (line.contains("err:") || line.contains("ERR:") || line.contains("error") || line.contains("ERROR")) {
            return "error";
        }
        if (line.contains("warn:") || line.contains("WARN:") || line.contains("warning") || line.contains("WARNING")) {
            return "warn";
        }
        if (line.contains("CRITICAL:") || line.contains("critical:")) {
            return "critical";
        }
        if (line.contains("debug:") || line.contains("DEBUG:")) {
            return "debug";
        }
        return "unknown";
    }
}
