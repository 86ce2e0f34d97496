package io.logbloom.chunks;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A {@link RangeSource} over a local file: one open {@link FileChannel}, positional reads (no shared
 * position), so concurrent reads need no lock. Thread-safe; close it when done.
 */
public final class FileRangeSource implements RangeSource, Closeable {
    private final Path path;
    private final FileChannel channel;

    FileRangeSource(Path path) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.READ);
    }

    @Override
    public String name() {
        return path.toString();
    }

    @Override
    public long size() throws IOException {
        return channel.size();
    }

    @Override
    public byte[] read(long offset, int length) throws IOException {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("bad range [" + offset + ", +" + length + ") of " + path);
        }
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, offset + buffer.position()) < 0) {
                throw RangeSource.truncated(name(), offset, length, buffer.position());
            }
        }
        return buffer.array();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
