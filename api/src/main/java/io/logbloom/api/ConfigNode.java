package io.logbloom.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.logbloom.logql.GoStrings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One mapping of the YAML config tree with its key path, read field by field: each getter takes a
 * default for a missing key, converts the value (sizes like {@code "256KB"}, durations like
 * {@code "1h30m"}) and reports a bad value with its full path; {@link #rejectUnknownKeys()} then
 * names any key no getter asked for. Not thread-safe (it records which keys were read).
 */
final class ConfigNode {
    /** A number followed by an optional unit; units are binary multiples as in Loki's flagext.ByteSize. */
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([a-zA-Z]*)");
    /** One component of a Prometheus/Go style duration, e.g. {@code 1h}, {@code 1.5m}, {@code 250ms}. */
    private static final Pattern DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h|d|w|y)");

    private final JsonNode node;
    private final String path;
    private final Set<String> read = new HashSet<>();

    ConfigNode(JsonNode node, String path) {
        this.node = node == null || node.isNull() ? MissingNode.getInstance() : node;
        this.path = path;
        if (!this.node.isMissingNode() && !this.node.isObject()) {
            throw new ConfigException("config " + (path.isEmpty() ? "root" : path)
                    + ": expected a mapping of keys, got '" + this.node.asText() + "'");
        }
    }

    /** The nested mapping under {@code key} (empty when absent). */
    ConfigNode section(String key) {
        return new ConfigNode(field(key), child(key));
    }

    String string(String key, String defaultValue) {
        JsonNode value = field(key);
        if (value.isMissingNode() || value.isNull()) {
            return defaultValue;
        }
        if (!value.isValueNode()) {
            throw new ConfigException("config " + child(key) + ": expected a string, got a nested structure");
        }
        return value.asText();
    }

    boolean bool(String key, boolean defaultValue) {
        JsonNode value = field(key);
        if (value.isMissingNode() || value.isNull()) {
            return defaultValue;
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        String text = value.asText().toLowerCase(Locale.ROOT);
        return switch (text) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new ConfigException("config " + child(key) + ": expected true or false, got '"
                    + value.asText() + "'");
        };
    }

    int integer(String key, int defaultValue) {
        JsonNode value = field(key);
        if (value.isMissingNode() || value.isNull()) {
            return defaultValue;
        }
        if (value.isIntegralNumber() && value.canConvertToInt()) {
            return value.intValue();
        }
        try {
            return Integer.parseInt(value.asText().trim());
        } catch (NumberFormatException e) {
            throw new ConfigException("config " + child(key) + ": expected an integer, got '" + value.asText() + "'", e);
        }
    }

    double decimal(String key, double defaultValue) {
        JsonNode value = field(key);
        if (value.isMissingNode() || value.isNull()) {
            return defaultValue;
        }
        if (value.isNumber()) {
            return value.doubleValue();
        }
        try {
            return GoStrings.parseFloat(value.asText().trim()); // as Go reads a number: 4d and 4f are not numbers
        } catch (GoStrings.ConversionException e) {
            throw new ConfigException("config " + child(key) + ": expected a number, got '" + value.asText() + "'", e);
        }
    }

    long bytes(String key, long defaultValue) {
        JsonNode value = field(key);
        if (value.isMissingNode() || value.isNull()) {
            return defaultValue;
        }
        try {
            return parseBytes(value.asText());
        } catch (IllegalArgumentException e) {
            throw new ConfigException("config " + child(key) + ": " + e.getMessage(), e);
        }
    }

    /** A size key that also takes {@code auto}, returned as {@link HeapShares#AUTO}. */
    long bytesOrAuto(String key, long defaultValue) {
        JsonNode value = field(key);
        if (!value.isMissingNode() && !value.isNull() && value.asText().trim().equalsIgnoreCase("auto")) {
            return HeapShares.AUTO;
        }
        return bytes(key, defaultValue);
    }

    Duration duration(String key, Duration defaultValue) {
        JsonNode value = field(key);
        if (value.isMissingNode() || value.isNull()) {
            return defaultValue;
        }
        try {
            return parseDuration(value.asText());
        } catch (IllegalArgumentException e) {
            throw new ConfigException("config " + child(key) + ": " + e.getMessage(), e);
        }
    }

    /** A sequence of strings (a YAML list, or one comma-separated string); {@code defaultValue} when absent. */
    List<String> strings(String key, List<String> defaultValue) {
        JsonNode value = field(key);
        if (value.isMissingNode() || value.isNull()) {
            return defaultValue;
        }
        List<String> out = new ArrayList<>();
        if (value.isArray()) {
            for (JsonNode item : value) {
                if (!item.isValueNode()) {
                    throw new ConfigException("config " + child(key) + ": expected a list of strings");
                }
                out.add(item.asText());
            }
        } else if (value.isValueNode()) {
            for (String item : value.asText().split(",")) {
                if (!item.isBlank()) {
                    out.add(item.trim());
                }
            }
        } else {
            throw new ConfigException("config " + child(key) + ": expected a list of strings");
        }
        return List.copyOf(out);
    }

    /** The mappings of a YAML list under {@code key}, each with its indexed path (empty when absent). */
    List<ConfigNode> sections(String key) {
        JsonNode value = field(key);
        if (value.isMissingNode() || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw new ConfigException("config " + child(key) + ": expected a list");
        }
        List<ConfigNode> out = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            out.add(new ConfigNode(value.get(i), child(key) + "[" + i + "]"));
        }
        return out;
    }

    /** The keys of this mapping in file order, each as a nested mapping (e.g. one per tenant); all count as read. */
    java.util.Map<String, ConfigNode> sectionsByKey() {
        java.util.Map<String, ConfigNode> out = new java.util.LinkedHashMap<>();
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            out.put(name, section(name));
        }
        return out;
    }

    /** Whether the mapping has {@code key} (even with an empty or null value); counts it as read. */
    boolean has(String key) {
        read.add(key);
        return node.has(key);
    }

    /** This mapping's key path (for messages). */
    String path() {
        return path;
    }

    /** Throws ConfigException naming the first key (with its full path) that no getter read. */
    void rejectUnknownKeys() {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!read.contains(name)) {
                throw new ConfigException("config " + child(name) + ": unknown key");
            }
        }
    }

    private JsonNode field(String key) {
        read.add(key);
        return node.path(key);
    }

    private String child(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /**
     * Bytes of a size such as {@code 1024}, {@code 256KB}, {@code 1.5MB}, {@code 2GiB}: units B, K/KB/KiB,
     * M/MB/MiB, G/GB/GiB, T/TB/TiB, case-insensitive, all binary (1KB = 1024 bytes) as in Loki.
     */
    static long parseBytes(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("invalid size '" + text + "' (expected e.g. 1024, 256KB, 1.5MB)");
        }
        long multiplier = switch (m.group(2).toUpperCase(Locale.ROOT)) {
            case "", "B" -> 1L;
            case "K", "KB", "KIB" -> 1L << 10;
            case "M", "MB", "MIB" -> 1L << 20;
            case "G", "GB", "GIB" -> 1L << 30;
            case "T", "TB", "TIB" -> 1L << 40;
            default -> throw new IllegalArgumentException("invalid size unit '" + m.group(2) + "' in '" + text
                    + "' (expected B, KB, MB, GB or TB)");
        };
        double bytes = Double.parseDouble(m.group(1)) * multiplier;
        if (bytes >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("size '" + text + "' is too large");
        }
        return (long) bytes;
    }

    /**
     * A duration such as {@code 30s}, {@code 1h30m}, {@code 1.5h}, {@code 250ms}, {@code 1w}, {@code 0}:
     * components ns, us, ms, s, m, h, d (24h), w (7d), y (365d), as Prometheus' model.Duration plus Go's decimals.
     */
    static Duration parseDuration(String text) {
        String s = text.trim();
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = DURATION_PART.matcher(s);
        double nanos = 0;
        int position = 0;
        while (position < s.length()) {
            if (!m.find(position) || m.start() != position) {
                throw new IllegalArgumentException("invalid duration '" + text
                        + "' (expected e.g. 30s, 1h30m, 250ms, 7d, 1w)");
            }
            double amount = Double.parseDouble(m.group(1));
            nanos += amount * switch (m.group(2)) {
                case "ns" -> 1d;
                case "us", "µs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                case "h" -> 3600e9;
                case "d" -> 86400e9;
                case "w" -> 7 * 86400e9;
                case "y" -> 365 * 86400e9;
                default -> throw new IllegalStateException("BUG: unit " + m.group(2) + " matched but not handled");
            };
            position = m.end();
        }
        if (s.isEmpty()) {
            throw new IllegalArgumentException("invalid duration '' (expected e.g. 30s, 1h30m)");
        }
        if (nanos >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("duration '" + text + "' is too long");
        }
        return Duration.ofNanos((long) nanos);
    }

    /** The shortest {@link #parseDuration}-readable text for {@code d}, e.g. {@code 1h30m}, {@code 250ms}, {@code 0s}. */
    static String formatDuration(Duration d) {
        long nanos = d.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        if (nanos % 1_000_000L != 0) {
            return nanos + "ns";
        }
        long millis = nanos / 1_000_000L;
        StringBuilder sb = new StringBuilder();
        long hours = millis / 3_600_000L;
        long minutes = millis / 60_000L % 60;
        long seconds = millis / 1000 % 60;
        long rest = millis % 1000;
        if (hours > 0) {
            sb.append(hours).append('h');
        }
        if (minutes > 0) {
            sb.append(minutes).append('m');
        }
        if (seconds > 0) {
            sb.append(seconds).append('s');
        }
        if (rest > 0) {
            sb.append(rest).append("ms");
        }
        return sb.toString();
    }
}
