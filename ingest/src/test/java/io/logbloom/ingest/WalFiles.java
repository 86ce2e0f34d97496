package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** What the WAL tests do to a WAL directory: reopen and replay it, list it, damage a segment. */
final class WalFiles {
    private WalFiles() {}

    /** Opens the WAL of {@code config}, checks the damage replay counted, closes it and returns what it replayed. */
    static List<WalRecord> replay(WalConfig config, long expectedCorruptions) throws IOException {
        List<WalRecord> replayed = new ArrayList<>();
        try (Wal wal = Wal.open(config, replayed::add)) {
            assertThat(wal.corruptions()).isEqualTo(expectedCorruptions);
        }
        return replayed;
    }

    static List<String> fileNames(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    static Path segment(Path dir, long id) {
        return dir.resolve(String.format("%020d.wal", id));
    }

    /** Flips the top bit of the byte at {@code offset}. */
    static void flipByte(Path file, long offset) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.seek(offset);
            int b = f.read();
            f.seek(offset);
            f.write(b ^ 0x80);
        }
    }
}
