package io.logbloom.logql;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The mutable label set of one line while it runs through a pipeline, with the origin of every label
 * (stream, structured metadata, parser). Like Loki's LabelsBuilder, a parsed or metadata label whose name
 * is already a stream label gets the suffix {@code _extracted}. Not thread-safe; reused per line.
 */
final class LineLabels {

    /** Where a label came from. */
    enum Origin {
        STREAM, METADATA, PARSED
    }

    static final String ERROR = "__error__";
    static final String ERROR_DETAILS = "__error_details__";
    static final String DUPLICATE_SUFFIX = "_extracted";

    private final Map<String, String> values = new HashMap<>();
    private final Map<String, Origin> origins = new HashMap<>();
    private Map<String, String> stream = Map.of();

    /** Resets to a stream's labels plus an entry's structured metadata. */
    void reset(Map<String, String> streamLabels, Map<String, String> metadata) {
        values.clear();
        origins.clear();
        stream = streamLabels;
        for (Map.Entry<String, String> e : streamLabels.entrySet()) {
            values.put(e.getKey(), e.getValue());
            origins.put(e.getKey(), Origin.STREAM);
        }
        for (Map.Entry<String, String> e : metadata.entrySet()) {
            add(Origin.METADATA, e.getKey(), e.getValue());
        }
    }

    /**
     * Adds a label from metadata or a parser, renaming it on collision with a stream label; when the (renamed)
     * label was already extracted the first value is kept, as Loki documents; parsed values replace metadata.
     */
    void add(Origin origin, String name, String value) {
        String n = stream.containsKey(name) ? name + DUPLICATE_SUFFIX : name;
        Origin existing = origins.get(n);
        if (existing == Origin.PARSED || existing == origin) {
            return; // later parsers bypass labels already extracted (Loki's parser key hints)
        }
        // a parsed label takes precedence over structured metadata of the same name
        values.put(n, value);
        origins.put(n, origin);
    }

    /** Sets a label as is (label_format). */
    void set(Origin origin, String name, String value) {
        values.put(name, value);
        origins.put(name, origin);
    }

    String get(String name) {
        return values.get(name);
    }

    boolean has(String name) {
        return values.containsKey(name);
    }

    void delete(String name) {
        values.remove(name);
        origins.remove(name);
    }

    boolean hasError() {
        return values.containsKey(ERROR);
    }

    /** Sets {@code __error__} (first error wins) and its details. */
    void setError(String error, String details) {
        if (hasError()) {
            return;
        }
        set(Origin.PARSED, ERROR, error);
        if (details != null) {
            set(Origin.PARSED, ERROR_DETAILS, details);
        }
    }

    Map<String, String> view() {
        return values;
    }

    Iterable<String> names() {
        return new java.util.ArrayList<>(values.keySet());
    }

    /** All labels, sorted. */
    TreeMap<String, String> all() {
        return new TreeMap<>(values);
    }

    /** Labels of one origin, sorted. */
    TreeMap<String, String> of(Origin origin) {
        TreeMap<String, String> out = new TreeMap<>();
        for (Map.Entry<String, Origin> e : origins.entrySet()) {
            if (e.getValue() == origin) {
                out.put(e.getKey(), values.get(e.getKey()));
            }
        }
        return out;
    }
}
