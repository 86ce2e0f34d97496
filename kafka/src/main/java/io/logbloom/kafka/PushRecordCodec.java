package io.logbloom.kafka;

import com.google.protobuf.UnsafeByteOperations;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.Utf8;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Binary format of a {@link PushRecord}, the value of a push-topic record, and the splitting of a
 * stream's entries into records no larger than a bound (Kafka refuses records above the broker's
 * {@code message.max.bytes}).
 *
 * <pre>
 * offset  size  field
 * 0       2     magic "LK"
 * 2       1     version (1; bump when the layout changes)
 * 3       2+n   tenant: u16 length, UTF-8
 *         2     label count, then per label: name and value, each u32 length + UTF-8
 *         4     entry count, then per entry:
 *                 8     timestamp (ns since the epoch)
 *                 4+n   line: u32 length + UTF-8
 *                 2     metadata count, then per pair: name and value, each u32 length + UTF-8
 * end-4   4     CRC32C of every byte before it
 * </pre>
 *
 * Kafka checks its own batch CRC; ours also covers the bytes between our encoder and decoder and lets
 * a reader tell a foreign or damaged record from a good one. Stateless and thread-safe.
 */
public final class PushRecordCodec {
    static final byte MAGIC_0 = 'L';
    static final byte MAGIC_1 = 'K';
    /** Current layout version; readers refuse others with a clear message. */
    static final byte VERSION = 1;
    /** Magic, version and CRC. */
    static final int FIXED_BYTES = 2 + 1 + 4;
    /** Bytes of an entry besides its strings: timestamp, line length, metadata count. */
    static final int ENTRY_OVERHEAD = 8 + 4 + 2;

    private PushRecordCodec() {}

    /** Encodes one record. */
    public static byte[] encode(PushRecord record) {
        byte[] tenant = utf8(record.tenant());
        int size = FIXED_BYTES + 2 + tenant.length + labelsSize(record.labels()) + 4;
        for (LogEntry e : record.entries()) {
            size += entrySize(e);
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put(MAGIC_0).put(MAGIC_1).put(VERSION);
        out.putShort((short) tenant.length).put(tenant);
        List<Label> labels = record.labels().list();
        out.putShort((short) labels.size());
        for (Label l : labels) {
            putString(out, l.name());
            putString(out, l.value());
        }
        out.putInt(record.entries().size());
        for (LogEntry e : record.entries()) {
            out.putLong(e.timestampNanos());
            byte[] line = e.utf8Line(); // as a protobuf push delivered it: no String made on the way to Kafka
            out.putInt(line.length).put(line);
            out.putShort((short) e.metadata().size());
            for (Label m : e.metadata()) {
                putString(out, m.name());
                putString(out, m.value());
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
        return out.array(); // the sizes are exact: Utf8.length counts what getBytes writes
    }

    /**
     * Encodes {@code entries} of one stream as records of at most {@code maxRecordBytes} each, in
     * order; an entry larger than the bound on its own gets a record of its own (Kafka then refuses it).
     */
    public static List<byte[]> encodeSplit(String tenant, Labels labels, List<LogEntry> entries, int maxRecordBytes) {
        int header = FIXED_BYTES + 2 + utf8(tenant).length + labelsSize(labels) + 4;
        List<byte[]> out = new ArrayList<>();
        int start = 0;
        long size = header;
        for (int i = 0; i < entries.size(); i++) {
            int entry = entrySize(entries.get(i));
            if (i > start && size + entry > maxRecordBytes) {
                out.add(encode(new PushRecord(tenant, labels, entries.subList(start, i))));
                start = i;
                size = header;
            }
            size += entry;
        }
        if (start < entries.size()) {
            out.add(encode(new PushRecord(tenant, labels, entries.subList(start, entries.size()))));
        }
        return out;
    }

    /** Decodes one record; throws {@link RecordFormatException} naming what is wrong with a damaged or foreign one. */
    public static PushRecord decode(byte[] bytes) {
        if (bytes == null || bytes.length < FIXED_BYTES) {
            throw new RecordFormatException("push record too short: " + (bytes == null ? 0 : bytes.length) + " bytes");
        }
        if (bytes[0] != MAGIC_0 || bytes[1] != MAGIC_1) {
            throw new RecordFormatException("not a push record: bad magic");
        }
        if (bytes[2] != VERSION) {
            throw new RecordFormatException("push record version " + bytes[2] + " is not supported (this build reads "
                    + VERSION + ")");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        if (in.getInt(bytes.length - 4) != (int) crc.getValue()) {
            throw new RecordFormatException("push record checksum mismatch (" + bytes.length + " bytes)");
        }
        in.limit(bytes.length - 4).position(3);
        try {
            byte[] tenant = new byte[Short.toUnsignedInt(in.getShort())];
            in.get(tenant);
            int labelCount = Short.toUnsignedInt(in.getShort());
            List<Label> labels = new ArrayList<>(labelCount);
            for (int i = 0; i < labelCount; i++) {
                labels.add(new Label(getString(in), getString(in)));
            }
            int entryCount = in.getInt();
            if (entryCount < 0 || entryCount > in.remaining() / ENTRY_OVERHEAD) {
                throw new RecordFormatException("push record entry count " + entryCount + " exceeds its size");
            }
            List<LogEntry> entries = new ArrayList<>(entryCount);
            for (int i = 0; i < entryCount; i++) {
                long ts = in.getLong();
                byte[] line = getUtf8(in); // kept as bytes: the consuming ingester hashes and stores them as they are
                int pairs = Short.toUnsignedInt(in.getShort());
                List<Label> metadata = new ArrayList<>(pairs);
                for (int p = 0; p < pairs; p++) {
                    metadata.add(new Label(getString(in), getString(in)));
                }
                entries.add(LogEntry.ofUtf8(ts, line, metadata));
            }
            if (in.hasRemaining()) {
                throw new RecordFormatException("push record has " + in.remaining() + " trailing bytes");
            }
            return new PushRecord(new String(tenant, StandardCharsets.UTF_8), Labels.of(labels), entries);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            if (e instanceof RecordFormatException r) {
                throw r;
            }
            throw new RecordFormatException("push record is malformed: " + e, e);
        }
    }

    private static int labelsSize(Labels labels) {
        int size = 2;
        for (Label l : labels.list()) {
            size += 8 + Utf8.length(l.name()) + Utf8.length(l.value());
        }
        return size;
    }

    private static int entrySize(LogEntry e) {
        int size = ENTRY_OVERHEAD + e.utf8Length();
        for (Label m : e.metadata()) {
            size += 8 + Utf8.length(m.name()) + Utf8.length(m.value());
        }
        return size;
    }

    private static void putString(ByteBuffer out, String s) {
        byte[] b = utf8(s);
        out.putInt(b.length).put(b);
    }

    private static String getString(ByteBuffer in) {
        int n = in.getInt();
        if (n < 0 || n > in.remaining()) {
            throw new RecordFormatException("push record string length " + n + " exceeds the record");
        }
        String s = new String(in.array(), in.arrayOffset() + in.position(), n, StandardCharsets.UTF_8);
        in.position(in.position() + n);
        return s;
    }

    /** A line's bytes, refused unless UTF-8 (the producer wrote a line's own bytes: anything else is damage). */
    private static byte[] getUtf8(ByteBuffer in) {
        int n = in.getInt();
        if (n < 0 || n > in.remaining()) {
            throw new RecordFormatException("push record line length " + n + " exceeds the record");
        }
        byte[] bytes = new byte[n];
        in.get(bytes);
        if (!UnsafeByteOperations.unsafeWrap(bytes).isValidUtf8()) {
            throw new RecordFormatException("push record line at offset " + (in.position() - n) + " is not UTF-8");
        }
        return bytes;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
