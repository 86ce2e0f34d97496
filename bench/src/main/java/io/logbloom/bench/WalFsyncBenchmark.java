package io.logbloom.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH: what one acknowledged push costs the WAL's disk, measured on the file system the benchmark runs on. Each
 * operation writes one record of the bar's size (a 1000-line push is about 170 KB in the WAL; {@code recordBytes})
 * and forces it with {@code fdatasync} ({@link FileChannel#force force(false)}), as a push with
 * {@code wal.fsync: per_request} does before it is acknowledged. Two layouts of the segment file:
 *
 * <ul>
 *   <li>{@code append}: the segment grows with every record, as a WAL segment in a new file does, so each force also
 *       commits the file's new size (on ext4 a journal commit, which waits for other files' data in the same
 *       transaction);
 *   <li>{@code preallocated}: the segment was filled with zeros and forced beforehand, so a record overwrites
 *       blocks that exist and the force writes data only (PostgreSQL's WAL segments work this way; ours since
 *       2026-12-07 write over a released segment's file, which is the same on disk).
 * </ul>
 *
 * {@code background=parts} runs a thread that writes 16 MiB files without forcing them, pausing 20 ms between them,
 * as sealing parts does beside a push; {@code none} measures the force alone. The push bar's server spends part of
 * each push waiting for this force (with {@code wal.fsync: interval} the same build pushed about a fifth faster, see
 * docs/measurements.md), so this is the measure of what the WAL's layout costs a push.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar WalFsyncBenchmark}; the files live in a temporary directory
 * under {@code java.io.tmpdir} (set it to the volume the WAL would use) and are deleted after the trial.
 * Per-thread state; one benchmark thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx256m")
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 3)
public class WalFsyncBenchmark {
    /** Bytes the segment is preallocated to; the write position wraps around to its start at the end. */
    private static final long SEGMENT_BYTES = 64L << 20;
    private static final int BACKGROUND_FILE_BYTES = 16 << 20;
    private static final int BACKGROUND_FILES = 4;
    private static final long BACKGROUND_PAUSE_MILLIS = 20;

    // the constants are lower case because JMH takes them by name: -p layout=append,preallocated

    /** How the segment file is laid out. */
    public enum Layout {
        /** Growing with each record. */
        append,
        /** Zero-filled and forced beforehand. */
        preallocated
    }

    /** Other writes beside the WAL. */
    public enum Background {
        /** The force alone. */
        none,
        /** Part files written without a force. */
        parts
    }

    @Param
    Layout layout;

    @Param
    Background background;

    /** Bytes of one WAL record: about one 1000-line push of the bar. */
    @Param("170000")
    int recordBytes;

    private Path dir;
    private FileChannel segment;
    private ByteBuffer record;
    private long position;
    private int appendedSegments;
    private Thread writer;
    private volatile boolean stopping;
    private volatile IOException writerFailure;

    /** Creates the segment (zero-filled and forced for {@code preallocated}) and starts the background writer. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        dir = Files.createTempDirectory("logbloom-wal-fsync");
        record = ByteBuffer.allocateDirect(recordBytes);
        for (int i = 0; i < recordBytes; i++) {
            record.put(i, (byte) (i * 31 + 7));
        }
        openSegment();
        if (background == Background.parts) {
            writer = new Thread(this::writeParts, "wal-fsync-background");
            writer.setDaemon(true);
            writer.start();
        }
    }

    /** One record written at the segment's end (or its next preallocated slot) and forced. */
    @Benchmark
    public long writeAndForce() throws IOException {
        if (position + recordBytes > SEGMENT_BYTES) {
            if (layout == Layout.append) {
                // a full segment is replaced by a new, empty one, as the WAL rotates
                segment.close();
                Files.delete(segmentPath());
                appendedSegments++;
                openSegment();
            } else {
                position = 0; // the preallocated blocks are overwritten again: still no size change
            }
        }
        record.clear();
        while (record.hasRemaining()) {
            position += segment.write(record, position);
        }
        segment.force(false);
        IOException failure = writerFailure;
        if (failure != null) {
            throw failure;
        }
        return position;
    }

    /** Stops the background writer and deletes the files. */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException, InterruptedException {
        stopping = true;
        if (writer != null) {
            writer.join();
        }
        segment.close();
        TempTrees.delete(dir);
    }

    private Path segmentPath() {
        return dir.resolve("segment-" + appendedSegments + ".wal");
    }

    private void openSegment() throws IOException {
        segment = FileChannel.open(segmentPath(), StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        position = 0;
        if (layout == Layout.preallocated) {
            ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
            for (long at = 0; at < SEGMENT_BYTES; ) {
                zeros.clear();
                at += segment.write(zeros, at);
            }
            segment.force(true);
        }
    }

    private void writeParts() {
        ByteBuffer bytes = ByteBuffer.allocateDirect(1 << 20);
        try {
            for (int n = 0; !stopping; n++) {
                Path part = dir.resolve("part-" + n % BACKGROUND_FILES);
                try (FileChannel out = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                        StandardOpenOption.TRUNCATE_EXISTING)) {
                    for (int written = 0; written < BACKGROUND_FILE_BYTES; ) {
                        bytes.clear();
                        written += out.write(bytes);
                    }
                }
                TimeUnit.MILLISECONDS.sleep(BACKGROUND_PAUSE_MILLIS);
            }
        } catch (IOException e) {
            writerFailure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
