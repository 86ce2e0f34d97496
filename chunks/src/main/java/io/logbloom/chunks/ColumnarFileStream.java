package io.logbloom.chunks;

import java.nio.file.Path;
import java.util.Objects;

/**
 * One stream of a columnar object held in a local file (an ingester's sealed part): the file, its
 * already loaded directory, and the index of the stream in it. A reader opens the file and reads
 * only the stream's blocks it needs. Immutable.
 *
 * @param file the columnar object file
 * @param directory its directory
 * @param streamIndex the stream's position in {@code directory.streams()}
 */
public record ColumnarFileStream(Path file, ColumnarDirectory directory, int streamIndex) {
    /** Validates. */
    public ColumnarFileStream {
        Objects.requireNonNull(file, "file is null");
        Objects.requireNonNull(directory, "directory is null");
        if (streamIndex < 0 || streamIndex >= directory.streams().size()) {
            throw new IllegalArgumentException("stream index " + streamIndex + " outside the directory's "
                    + directory.streams().size() + " streams");
        }
    }

    /** The stream's blocks overlapping [fromNanos, throughNanos), as indexes into {@code directory.blocks()}. */
    public int[] blocksIn(long fromNanos, long throughNanos) {
        ColumnarStreamInfo info = directory.streams().get(streamIndex);
        int[] out = new int[info.blockCount()];
        int n = 0;
        for (int b = info.firstBlock(); b < info.firstBlock() + info.blockCount(); b++) {
            ColumnarBlockInfo block = directory.blocks().get(b);
            if (block.maxTimeNanos() >= fromNanos && block.minTimeNanos() < throughNanos) {
                out[n++] = b;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }
}
