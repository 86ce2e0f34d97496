package io.logbloom.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Temporary directory trees of the benchmarks and reports: made, and deleted whole. Stateless; thread-safe. */
final class TempTrees {
    private TempTrees() {}

    /**
     * A new temporary directory named {@code prefix…}, deleted with everything in it when the JVM exits (also on
     * SIGTERM or Ctrl-C), so a stopped report does not leave its data set behind.
     */
    static Path createDeletedOnExit(String prefix) throws IOException {
        Path dir = Files.createTempDirectory(prefix);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                delete(dir);
            } catch (IOException | UncheckedIOException e) {
                System.err.println("could not delete " + dir + ": " + e);
            }
        }, "delete-" + dir.getFileName()));
        return dir;
    }

    /** Deletes {@code dir} and everything below it; nothing when it does not exist. */
    static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
