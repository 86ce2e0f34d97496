package io.logbloom.chunks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A chunk's interned structured-metadata names and values: each distinct string is stored once per
 * chunk and entries refer to it by its index, so {@code trace_id=...} repeated on every line costs a
 * varint per line instead of its text. Ids are assigned in first-seen order and never change, so
 * blocks cut earlier stay valid as the table grows. Not thread-safe.
 *
 * <p>The string-to-id index is a flat open-addressing table (linear probing, load at most 1/2) of
 * {@code id + 1} per slot, with each symbol's hash kept beside it so a probe compares ints and calls
 * {@code equals} only on a hash match. A {@code HashMap<String, Integer>} cost a node and a boxed id per
 * distinct value — one per line for trace ids — and was an eighth of the push CPU.
 */
final class SymbolTable {
    /** Smallest index: a chunk with a handful of metadata values stays a few hundred bytes. */
    private static final int MIN_SLOTS = 16;

    private final List<String> symbols = new ArrayList<>();
    /** Slot holds {@code id + 1} of the symbol hashed there, 0 when free. */
    private int[] slots = new int[MIN_SLOTS];
    /** {@code hashes[id]} = {@code symbols.get(id).hashCode()}. */
    private int[] hashes = new int[MIN_SLOTS];
    private long utf8Bytes;

    int intern(String s) {
        int hash = s.hashCode();
        int mask = slots.length - 1;
        int i = spread(hash) & mask;
        for (int slot = slots[i]; slot != 0; slot = slots[i]) {
            if (hashes[slot - 1] == hash && symbols.get(slot - 1).equals(s)) {
                return slot - 1;
            }
            i = (i + 1) & mask;
        }
        int id = symbols.size();
        symbols.add(s);
        if (id == hashes.length) {
            hashes = Arrays.copyOf(hashes, id * 2);
        }
        hashes[id] = hash;
        slots[i] = id + 1;
        utf8Bytes += Utf8.length(s);
        if (symbols.size() > slots.length / 2) {
            rehash(slots.length * 2);
        }
        return id;
    }

    private static int spread(int hash) {
        int h = hash * 0x9E3779B1; // Fibonacci hashing: the multiply carries every bit upward, the shift brings them down
        return h ^ (h >>> 16);
    }

    private void rehash(int capacity) {
        int[] grown = new int[capacity];
        int mask = capacity - 1;
        for (int id = 0; id < symbols.size(); id++) {
            int i = spread(hashes[id]) & mask;
            while (grown[i] != 0) {
                i = (i + 1) & mask;
            }
            grown[i] = id + 1;
        }
        slots = grown;
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
