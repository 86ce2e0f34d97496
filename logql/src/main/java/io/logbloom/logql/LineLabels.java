package io.logbloom.logql;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The mutable label set of one line while it runs through a pipeline, with the origin of every label
 * (stream, structured metadata, parser). Like Loki's LabelsBuilder, a parsed or metadata label whose name
 * is already a stream label gets the suffix {@code _extracted}. The label maps are built only when a stage needs
 * more than a plain lookup: {@link #reset} keeps references, and {@link #get}/{@link #has} answer from the stream
 * labels and metadata directly (most lines of a metric query are only grouped by a few labels). Not thread-safe;
 * reused per line.
 */
final class LineLabels {

    /** Where a label came from. */
    enum Origin {
        STREAM, METADATA, PARSED
    }

    static final String ERROR = "__error__";
    static final String ERROR_DETAILS = "__error_details__";

    /** Whether {@code name} is one of the labels a pipeline error sets ({@link #ERROR}, {@link #ERROR_DETAILS}). */
    static boolean isError(String name) {
        return name.equals(ERROR) || name.equals(ERROR_DETAILS);
    }
    static final String DUPLICATE_SUFFIX = "_extracted";

    private final Map<String, String> values = new HashMap<>();
    private final Map<String, Origin> origins = new HashMap<>();
    private Map<String, String> stream = Map.of();
    private Map<String, String> metadata = Map.of();
    /** Whether a lookup was answered by structured metadata since this instance was created (never reset). */
    private boolean referencedMetadata;
        /** Whether {@link #values}/{@link #origins} hold the current line's labels. */
    private boolean materialized = true;

    /** Resets to a stream's labels plus an entry's structured metadata. */
    void reset(Map<String, String> streamLabels, Map<String, String> metadata) {
        this.stream = streamLabels;
        this.metadata = metadata;
        this.materialized = false;
    }

    private void materialize() {
        if (materialized) {
            return;
        }
        materialized = true;
        values.clear();
        origins.clear();
        for (Map.Entry<String, String> e : stream.entrySet()) {
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
        materialize();
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
        materialize();
        values.put(name, value);
        origins.put(name, origin);
    }

    String get(String name) {
        if (!materialized && !name.endsWith(DUPLICATE_SUFFIX)) {
            // no renaming can produce this name: a stream label wins, else the metadata value
            String v = stream.get(name);
            if (v != null) {
                return v;
            }
            v = metadata.get(name);
            if (v != null) {
                referencedMetadata = true;
            }
            return v;
        }
        materialize();
        if (origins.get(name) == Origin.METADATA) {
            referencedMetadata = true;
        }
        return values.get(name);
    }

    /** True once a lookup ({@link #get}) was answered by structured metadata: Loki's queryReferencedStructuredMetadata. */
    boolean referencedMetadata() {
        return referencedMetadata;
    }

    boolean has(String name) {
        if (!materialized && !name.endsWith(DUPLICATE_SUFFIX)) {
            return stream.containsKey(name) || metadata.containsKey(name);
        }
        materialize();
        return values.containsKey(name);
    }

    void delete(String name) {
        materialize();
        values.remove(name);
        origins.remove(name);
    }

    boolean hasError() {
        return has(ERROR);
    }

    /** Sets {@code __error__} (first error wins) and its details. */
    /** Sets the error and its details, replacing an earlier error (and dropping its details). */
    void replaceError(String error, String details) {
        delete(ERROR);
        delete(ERROR_DETAILS);
        setError(error, details);
    }

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
        materialize();
        return values;
    }

    Iterable<String> names() {
        materialize();
        return new java.util.ArrayList<>(values.keySet());
    }

    /** All labels, sorted. */
    TreeMap<String, String> all() {
        materialize();
        return new TreeMap<>(values);
    }

    /** Labels of one origin, sorted. */
    TreeMap<String, String> of(Origin origin) {
        materialize();
        TreeMap<String, String> out = new TreeMap<>();
        for (Map.Entry<String, Origin> e : origins.entrySet()) {
            if (e.getValue() == origin) {
                out.put(e.getKey(), values.get(e.getKey()));
            }
        }
        return out;
    }
}
