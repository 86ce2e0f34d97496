package io.logbloom.bench;

import io.logbloom.ingest.Ingester;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * CPU time of some of a JVM's threads, picked by name, from each thread's {@code schedstat} (run time in ns): what
 * the JIT compilers, the garbage collector, the merges, the seals or the request threads took from the two cores while
 * a report's requests ran.
 * {@code /proc} cuts thread names to 15 characters, so the prefixes are matched against that. Threads that ended are
 * no longer listed: count only threads that live as long as the process. Linux only.
 */
final class ThreadCpu {
    /** Characters of a thread's name that {@code /proc/<pid>/task/<tid>/comm} keeps. */
    static final int MAX_COMM_CHARS = 15;
    /** HotSpot's {@code C1 CompilerThreadN} and {@code C2 CompilerThreadN}. */
    static final List<String> COMPILERS = List.of("C1 CompilerThre", "C2 CompilerThre");
    /** HotSpot's collector threads ({@code GC Thread#N}, and the concurrent ones of G1). */
    static final List<String> COLLECTOR = List.of("GC Thread#", "G1 ");
    /** The ingester's merges: its merge thread and the merge's block encoders, if any. */
    static final List<String> MERGES = List.of(comm(Ingester.MERGE_THREAD));
    /** The ingester's seal thread. */
    static final List<String> SEAL = List.of(comm(Ingester.SEAL_THREAD));
    /**
     * The HTTP server's request threads (Javalin's Jetty pool, {@code JettyServerThreadPool-N}); the pool ends threads
     * idle for a minute, and what an ended thread ran is no longer counted: measure over a busy stretch.
     */
    static final List<String> REQUESTS = List.of(comm("JettyServerThreadPool-"));

    private ThreadCpu() {}

    /** What {@code /proc} shows of a thread named {@code name}: its first 15 characters. */
    static String comm(String name) {
        return name.length() <= MAX_COMM_CHARS ? name : name.substring(0, MAX_COMM_CHARS);
    }

    /** Seconds the threads of process {@code pid} whose names start with one of {@code prefixes} have run so far. */
    static double seconds(long pid, List<String> prefixes) throws IOException {
        return seconds(Path.of("/proc", Long.toString(pid), "task"), prefixes);
    }

    /** Seconds the threads under {@code taskDir} (a {@code /proc/<pid>/task} tree) named by the prefixes have run. */
    static double seconds(Path taskDir, List<String> prefixes) throws IOException {
        long nanos = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    if (prefixes.stream().anyMatch(name::startsWith)) {
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
