package io.logbloom.tokens;

import java.util.Arrays;

/**
 * The distinct words one chunk's tokenizer has fed already, so a word repeated on many lines of the
 * chunk is hashed and fed once: word tokens repeat on nearly every line (keys, levels, message
 * words), and a full hash per occurrence was most of the tokenizing cost of a merge. An
 * open-addressing table (linear probing, at most half full) of word ids keyed by a cheap
 * polynomial hash of the bytes; each word's bytes are copied into one arena, so no object is made
 * per word. Words of up to 16 bytes (nearly all of them) are also kept packed into two {@code long}s, so a
 * repeat of one is recognized by two comparisons instead of a range comparison, whose call and setup
 * cost more than the few bytes it compared.
 *
 * <p>Bounded: after {@link #MAX_WORDS} distinct words or {@link #MAX_ARENA_BYTES} bytes it stops
 * remembering and answers "first time" for every new word, which only costs the repeats' hashing
 * again: a chunk's bloom tokens may be fed more than once, never fewer.
 *
 * <p>Not thread-safe: one per chunk being tokenized.
 */
final class SeenWords {
    /** Far above the distinct words of a block of ordinary log lines; keeps the table at 64 KiB. */
    static final int MAX_WORDS = 8192;
    /** Words are a few bytes; a block's distinct ones fit easily, and an id column of long words cannot grow it further. */
    static final int MAX_ARENA_BYTES = 128 * 1024;
    private static final int INITIAL_SLOTS = 256;

    private int[] slots = new int[INITIAL_SLOTS];
    private int[] starts = new int[INITIAL_SLOTS / 2];
    private int[] lengths = new int[INITIAL_SLOTS / 2];
    private int[] hashes = new int[INITIAL_SLOTS / 2];
    /** Words up to this many bytes are compared by their packed bytes. */
    private static final int MAX_PACKED_BYTES = 2 * Long.BYTES;
    /** Per word of up to {@link #MAX_PACKED_BYTES} bytes, its first 8 bytes big-endian in a long, then the rest. */
    private long[] packs = new long[INITIAL_SLOTS];
    private byte[] arena = new byte[2048];
    private int size;
    private int arenaSize;

    /**
     * Whether {@code length} bytes of {@code bytes} from {@code offset} are a word not seen before (it is
     * remembered now, while there is room); false only for a word seen before.
     */
    boolean firstTime(byte[] bytes, int offset, int length) {
        int hash = 0;
        long head = 0;
        long tail = 0;
        int end = offset + length;
        int i = offset;
        for (int stop = Math.min(end, offset + Long.BYTES); i < stop; i++) {
            hash = 31 * hash + bytes[i];
            head = head << 8 | (bytes[i] & 0xFF);
        }
        for (int stop = Math.min(end, offset + MAX_PACKED_BYTES); i < stop; i++) {
            hash = 31 * hash + bytes[i];
            tail = tail << 8 | (bytes[i] & 0xFF);
        }
        for (; i < end; i++) {
            hash = 31 * hash + bytes[i];
        }
        boolean isPacked = length <= MAX_PACKED_BYTES;
        hash ^= hash >>> 15;
        hash *= 0x2C1B3C6D;
        hash ^= hash >>> 12;
        int mask = slots.length - 1;
        for (int slot = hash & mask;; slot = (slot + 1) & mask) {
            int entry = slots[slot];
            if (entry == 0) {
                if (size < MAX_WORDS && arenaSize + length <= MAX_ARENA_BYTES) {
                    add(slot, hash, head, tail, bytes, offset, length);
                }
                return true;
            }
            int id = entry - 1;
            if (hashes[id] == hash && lengths[id] == length && (isPacked ? packs[2 * id] == head && packs[2 * id + 1] == tail
                    : Arrays.equals(arena, starts[id], starts[id] + length, bytes, offset, offset + length))) {
                return false;
            }
        }
    }

    private void add(int slot, int hash, long head, long tail, byte[] bytes, int offset, int length) {
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            lengths = Arrays.copyOf(lengths, size * 2);
            hashes = Arrays.copyOf(hashes, size * 2);
            packs = Arrays.copyOf(packs, size * 4);
        }
        if (arenaSize + length > arena.length) {
            arena = Arrays.copyOf(arena, Math.min(MAX_ARENA_BYTES, Math.max(arenaSize + length, arena.length * 2)));
        }
        System.arraycopy(bytes, offset, arena, arenaSize, length);
        int id = size++;
        starts[id] = arenaSize;
        lengths[id] = length;
        hashes[id] = hash;
        packs[2 * id] = head;
        packs[2 * id + 1] = tail;
        arenaSize += length;
        slots[slot] = id + 1;
        if (2 * size > slots.length) {
            rehash();
        }
    }

    private void rehash() {
        slots = new int[slots.length * 2];
        int mask = slots.length - 1;
        for (int id = 0; id < size; id++) {
            int slot = hashes[id] & mask;
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = id + 1;
        }
    }
}
