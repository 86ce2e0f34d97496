package io.logbloom.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * CPU time of a JVM's JIT compiler threads (HotSpot names them {@code C1 CompilerThreadN} and
 * {@code C2 CompilerThreadN}, cut to 15 characters in {@code /proc}), from each thread's {@code schedstat} (run time in
 * ns): what the compilers took from the two cores while a report's requests ran. Linux only.
 */
final class CompilerCpu {
    private CompilerCpu() {}

    /** Seconds the compiler threads of process {@code pid} have run so far. */
    static double seconds(long pid) throws IOException {
        return seconds(Path.of("/proc", Long.toString(pid), "task"));
    }

    /** Seconds the compiler threads under {@code taskDir} (a {@code /proc/<pid>/task} tree) have run so far. */
    static double seconds(Path taskDir) throws IOException {
        long nanos = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
                        nanos += Long.parseLong(Files.readString(task.resolve("schedstat")).strip().split(" ")[0]);
                    }
                } catch (NoSuchFileException e) {
                    // the thread ended while the directory was listed
                }
            }
        }
        return nanos / 1e9;
    }
}
