package io.logbloom.api;

import io.logbloom.ingest.LineFields;
import io.logbloom.logql.LogfmtFields;
import io.logbloom.logql.ResultEntry;
import io.logbloom.logql.ResultStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The fields Loki's {@code detected_fields} reports over a sample of lines: structured metadata (no
 * parser), and what the {@code json} parser finds in JSON lines or the {@code logfmt} parser in the others
 * (parser named, JSON path kept), each with its distinct values. Stream labels are not fields; a parsed key that names
 * one is the field {@code key_extracted}. Not thread-safe (one instance per request).
 */
final class DetectedFields {
    /** One detected field: its distinct values, the parsers that produced it, and its JSON path (may be empty). */
    static final class Field {
        final TreeSet<String> values = new TreeSet<>();
        final TreeSet<String> parsers = new TreeSet<>();
        List<String> jsonPath = List.of();
        boolean metadata;
    }

    private final Map<String, Field> fields = new TreeMap<>();

    /** Adds the entries of {@code streams}. */
    void addAll(List<ResultStream> streams) {
        for (ResultStream s : streams) {
            Map<String, String> streamLabels = s.streamLabels();
            for (ResultEntry e : s.entries()) {
                e.structuredMetadata().forEach((k, v) -> {
                    Field f = fields.computeIfAbsent(k, x -> new Field());
                    f.values.add(v);
                    f.metadata = true;
                });
                if (LineFields.isJson(e.line())) {
                    for (LineFields.Field p : LineFields.json(e.line()).values()) {
                        Field f = parsedField(p.name(), streamLabels, "json");
                        f.values.add(p.value());
                        f.jsonPath = p.jsonPath();
                    }
                } else {
                    // as | logfmt names them: Drilldown filters and breaks a field down with that stage
                    LogfmtFields.of(e.line()).forEach((name, value) -> {
                        parsedField(name, streamLabels, "logfmt").values.add(value);
                    });
                }
            }
        }
    }

    /**
     * The field a parser found under {@code name}, named as the parser stage names it: {@code name_extracted} when a
     * stream label has the name (as Loki's parsers rename it); a structured-metadata field of the name is the same
     * field, the parser added to it (a parsed value takes the metadata's place in a query, as in Loki).
     */
    private Field parsedField(String name, Map<String, String> streamLabels, String parser) {
        String label = streamLabels.containsKey(name) ? name + "_extracted" : name;
        Field f = fields.computeIfAbsent(label, x -> new Field());
        f.parsers.add(parser);
        return f;
    }

    /** The fields by name. */
    Map<String, Field> fields() {
        return fields;
    }

    /** The distinct values of {@code name}, at most {@code limit}, sorted. */
    List<String> values(String name, int limit) {
        Field f = fields.get(name);
        List<String> out = new ArrayList<>();
        if (f != null) {
            for (String v : f.values) {
                if (out.size() >= limit) {
                    break;
                }
                out.add(v);
            }
        }
        return out;
    }
}
