package io.logbloom.chunks;

import java.util.Objects;

/** One name/value pair: a stream label or a structured-metadata field. Immutable. */
public record Label(String name, String value) implements Comparable<Label> {
    public Label {
        Objects.requireNonNull(name, "name is null");
        Objects.requireNonNull(value, "value is null");
    }

    @Override
    public int compareTo(Label other) {
        int byName = name.compareTo(other.name);
        return byName != 0 ? byName : value.compareTo(other.value);
    }
}
