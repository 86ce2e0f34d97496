package io.logbloom.chunks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A chunk's interned structured-metadata names and values: each distinct string is stored once per
 * chunk and entries refer to it by its index, so {@code trace_id=...} repeated on every line costs a
 * varint per line instead of its text. Ids are assigned in first-seen order and never change, so
 * blocks cut earlier stay valid as the table grows. Not thread-safe.
 */
final class SymbolTable {
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<String> symbols = new ArrayList<>();
    private long utf8Bytes;

    int intern(String s) {
        int next = symbols.size();
        Integer id = ids.putIfAbsent(s, next); // one hash lookup: unique values (trace ids) are the common case
        if (id != null) {
            return id;
        }
        symbols.add(s);
        utf8Bytes += Utf8.length(s);
        return next;
    }

    int size() {
        return symbols.size();
    }

    long utf8Bytes() {
        return utf8Bytes;
    }

    /** A copy of the symbols, indexable by id; later interning does not change it. */
    String[] snapshot() {
        return symbols.toArray(new String[0]);
    }

    /** Count then length-prefixed UTF-8 strings. */
    void writeTo(ByteSink sink) {
        sink.writeUvarint(symbols.size());
        for (String s : symbols) {
            sink.writeString(s);
        }
    }

    /** Reads what {@link #writeTo} wrote. */
    static String[] read(byte[] data, String section) throws ChunkFormatException {
        ByteSource in = new ByteSource(data, 0, data.length, section);
        int count = in.readLength(data.length, "symbol count");
        String[] symbols = new String[count];
        for (int i = 0; i < count; i++) {
            symbols[i] = in.readString("symbol " + i);
        }
        if (in.hasRemaining()) {
            throw new ChunkFormatException(section + ": " + (data.length - in.position()) + " trailing bytes after "
                    + count + " symbols");
        }
        return symbols;
    }
}
