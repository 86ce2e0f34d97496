package io.logbloom.ingest;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            if (record instanceof WalRecord.Entries e) {
                out.writeByte(TYPE_ENTRIES);
                writeString(out, e.tenant());
                out.writeInt(e.streams().size());
                for (WalRecord.StreamEntries s : e.streams()) {
                    writeString(out, s.labels());
                    out.writeInt(s.entries().size());
                    for (LogEntry entry : s.entries()) {
                        out.writeLong(entry.timestampNanos());
                        writeString(out, entry.line());
                        out.writeInt(entry.metadata().size());
                        for (Label l : entry.metadata()) {
                            writeString(out, l.name());
                            writeString(out, l.value());
                        }
                    }
                }
            } else if (record instanceof WalRecord.Flushed f) {
                out.writeByte(TYPE_FLUSHED);
                writeString(out, f.tenant());
                writeString(out, f.labels());
                out.writeInt(f.timestamps().length);
                for (int i = 0; i < f.timestamps().length; i++) {
                    out.writeLong(f.timestamps()[i]);
                    out.writeLong(f.lineHashes()[i]);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("BUG: in-memory stream failed", e);
        }
        return bytes.toByteArray();
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

    private static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readString(ByteBuffer in) {
        int n = count(in);
        String s = new String(in.array(), in.position(), n, StandardCharsets.UTF_8);
        in.position(in.position() + n);
        return s;
    }
}
