package io.logbloom.ingest;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Binary form of one {@link WalRecord} payload (the framing with length and CRC32C is {@link Wal}'s).
 *
 * <pre>
 * payload  := type:u8 body
 * type 1   := tenant:str streams:u32 { labels:str entries:u32 { ts:i64 line:str md:u32 { name:str value:str } } }
 * type 2   := tenant:str labels:str n:u32 { ts:i64 lineHash:i64 }
 * str      := length:u32 utf8-bytes
 * </pre>
 * All integers big-endian. Stateless and thread-safe.
 */
final class WalCodec {
    static final byte TYPE_ENTRIES = 1;
    static final byte TYPE_FLUSHED = 2;

    private WalCodec() {}

    static byte[] encode(WalRecord record) {
        Buffer out = new Buffer(256);
        if (record instanceof WalRecord.Entries e) {
            out.writeByte(TYPE_ENTRIES);
            out.writeString(e.tenant());
            out.writeInt(e.streams().size());
            for (WalRecord.StreamEntries s : e.streams()) {
                out.writeString(s.labels());
                out.writeInt(s.entries().size());
                for (LogEntry entry : s.entries()) {
                    writeEntry(out, entry);
                }
            }
        } else if (record instanceof WalRecord.Flushed f) {
            out.writeByte(TYPE_FLUSHED);
            out.writeString(f.tenant());
            out.writeString(f.labels());
            out.writeInt(f.timestamps().length);
            for (int i = 0; i < f.timestamps().length; i++) {
                out.writeLong(f.timestamps()[i]);
                out.writeLong(f.lineHashes()[i]);
            }
        }
        return out.toByteArray();
    }

    /**
     * Appends one entry in the layout of a type-1 record ({@code ts line md {name value}}), so the
     * ingester can encode entries before it takes its lock and later splice the accepted ones into a
     * record with {@link Buffer#writeBytes}: the result is byte-identical to {@link #encode}.
     */
    static void writeEntry(Buffer out, LogEntry entry) {
        // entryLineOffset and entryLineLength below read this layout back: keep them in step
        out.writeLong(entry.timestampNanos());
        out.writeString(entry.line());
        writeMetadata(out, entry.metadata());
    }

    /** As {@link #writeEntry(Buffer, LogEntry)} with the line given as its UTF-8 bytes (copied, not encoded again). */
    static void writeEntry(Buffer out, long timestampNanos, byte[] utf8Line, List<Label> metadata) {
        out.writeLong(timestampNanos);
        out.writeInt(utf8Line.length);
        out.writeBytes(utf8Line, 0, utf8Line.length);
        writeMetadata(out, metadata);
    }

    private static void writeMetadata(Buffer out, List<Label> metadata) {
        out.writeInt(metadata.size());
        for (Label l : metadata) {
            out.writeString(l.name());
            out.writeString(l.value());
        }
    }

    /** Where the line's UTF-8 bytes start in an entry written by {@link #writeEntry} at {@code entryStart}. */
    static int entryLineOffset(int entryStart) {
        return entryStart + Long.BYTES + Integer.BYTES;
    }

    /** The line's UTF-8 length in an entry written by {@link #writeEntry} at {@code entryStart} of {@code bytes}. */
    static int entryLineLength(byte[] bytes, int entryStart) {
        int at = entryStart + Long.BYTES;
        return (bytes[at] & 0xFF) << 24 | (bytes[at + 1] & 0xFF) << 16 | (bytes[at + 2] & 0xFF) << 8 | bytes[at + 3] & 0xFF;
    }

    /**
     * A growable big-endian byte buffer for WAL payloads: strings go straight from the JDK's UTF-8
     * encoder into the array, with none of {@code DataOutputStream}'s per-byte synchronized writes.
     * Not thread-safe.
     */
    static final class Buffer {
        private byte[] bytes;
        private int size;

        Buffer(int initialCapacity) {
            bytes = new byte[Math.max(16, initialCapacity)];
        }

        int size() {
            return size;
        }

        /** Empties the buffer, keeping its array for the next record. */
        void clear() {
            size = 0;
        }

        /** The capacity of the array held. */
        int capacity() {
            return bytes.length;
        }

        byte[] array() {
            return bytes;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(bytes, size);
        }

        private void ensure(int extra) {
            if (size + extra > bytes.length) {
                long wanted = Math.max((long) bytes.length * 2, (long) size + extra);
                if (wanted > Integer.MAX_VALUE - 16) {
                    throw new IllegalStateException("WAL record would exceed 2 GiB: " + wanted + " bytes");
                }
                bytes = Arrays.copyOf(bytes, (int) wanted);
            }
        }

        void writeByte(int v) {
            ensure(1);
            bytes[size++] = (byte) v;
        }

        void writeInt(int v) {
            ensure(4);
            bytes[size] = (byte) (v >>> 24);
            bytes[size + 1] = (byte) (v >>> 16);
            bytes[size + 2] = (byte) (v >>> 8);
            bytes[size + 3] = (byte) v;
            size += 4;
        }

        void writeLong(long v) {
            writeInt((int) (v >>> 32));
            writeInt((int) v);
        }

        /**
         * Writes {@code s} as length and UTF-8 bytes; ASCII (nearly every line and name) is copied char by
         * char into the array, with no intermediate byte array per string; anything else goes through the
         * JDK's encoder. Both give the same bytes.
         */
        void writeString(String s) {
            int n = s.length();
            ensure(4 + n);
            byte[] b = bytes;
            int at = size + 4;
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                    writeInt(utf8.length);
                    writeBytes(utf8, 0, utf8.length);
                    return;
                }
                b[at + i] = (byte) c;
            }
            writeInt(n);
            size += n;
        }

        void writeBytes(byte[] src, int offset, int length) {
            ensure(length);
            System.arraycopy(src, offset, bytes, size, length);
            size += length;
        }
    }

    /** Decodes a payload whose checksum already matched; structural damage throws IllegalArgumentException. */
    static WalRecord decode(byte[] payload) {
        ByteBuffer in = ByteBuffer.wrap(payload);
        try {
            byte type = in.get();
            WalRecord record = switch (type) {
                case TYPE_ENTRIES -> {
                    String tenant = readString(in);
                    int streams = count(in);
                    List<WalRecord.StreamEntries> list = new ArrayList<>(streams);
                    for (int s = 0; s < streams; s++) {
                        String labels = readString(in);
                        int n = count(in);
                        List<LogEntry> entries = new ArrayList<>(n);
                        for (int i = 0; i < n; i++) {
                            long ts = in.getLong();
                            String line = readString(in);
                            int md = count(in);
                            List<Label> metadata = new ArrayList<>(md);
                            for (int j = 0; j < md; j++) {
                                metadata.add(new Label(readString(in), readString(in)));
                            }
                            entries.add(new LogEntry(ts, line, metadata));
                        }
                        list.add(new WalRecord.StreamEntries(labels, entries));
                    }
                    yield new WalRecord.Entries(tenant, list);
                }
                case TYPE_FLUSHED -> {
                    String tenant = readString(in);
                    String labels = readString(in);
                    int n = count(in);
                    long[] ts = new long[n];
                    long[] hashes = new long[n];
                    for (int i = 0; i < n; i++) {
                        ts[i] = in.getLong();
                        hashes[i] = in.getLong();
                    }
                    yield new WalRecord.Flushed(tenant, labels, ts, hashes);
                }
                default -> throw new IllegalArgumentException("unknown WAL record type " + type);
            };
            if (in.hasRemaining()) {
                throw new IllegalArgumentException("WAL record has " + in.remaining() + " trailing bytes");
            }
            return record;
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("WAL record truncated at offset " + in.position(), e);
        }
    }

    private static int count(ByteBuffer in) {
        int n = in.getInt();
        if (n < 0 || n > in.remaining()) {
            throw new IllegalArgumentException("WAL record count " + n + " exceeds remaining " + in.remaining() + " bytes");
        }
        return n;
    }

    private static String readString(ByteBuffer in) {
        int n = count(in);
        String s = new String(in.array(), in.position(), n, StandardCharsets.UTF_8);
        in.position(in.position() + n);
        return s;
    }
}
