package io.logbloom.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.FileSystemObjectStore;
import io.logbloom.ingest.IngestConfig;
import io.logbloom.ingest.Ingester;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ThreadCpuTest {
    @TempDir
    Path dir;

    private void task(String tid, String comm, String schedstat) throws Exception {
        Path task = Files.createDirectories(dir.resolve(tid));
        Files.writeString(task.resolve("comm"), comm + "\n");
        Files.writeString(task.resolve("schedstat"), schedstat + "\n");
    }

    @Test
    void seconds_sumsTheCompilerThreadsOnly() throws Exception {
        task("10", "C2 CompilerThre", "1500000000 20 30");
        task("11", "C1 CompilerThre", "250000000 5 6");
        task("12", "C2 CompilerThre", "250000000 1 1");
        task("13", "JettyServerThre", "9000000000 1 1");
        task("14", "java", "7000000000 1 1");
        Files.createDirectories(dir.resolve("15")); // a thread that ended while listed: no files

        assertThat(ThreadCpu.seconds(dir, ThreadCpu.COMPILERS)).isEqualTo(2.0);
    }

    @Test
    void seconds_sumsTheThreadsOfEveryPrefix() throws Exception {
        task("20", "GC Thread#0", "400000000 1 1");
        task("21", "GC Thread#1", "600000000 1 1");
        task("22", "logbloom-merge-", "3000000000 1 1"); // an encoder of the merge
        task("23", "logbloom-merge", "5000000000 1 1");
        task("24", "logbloom-seal", "7000000000 1 1");
        task("25", "JettyServerThre", "11000000000 1 1");
        task("26", "C2 CompilerThre", "13000000000 1 1");

        assertThat(ThreadCpu.seconds(dir, ThreadCpu.COLLECTOR)).isEqualTo(1.0);
        assertThat(ThreadCpu.seconds(dir, ThreadCpu.MERGES)).isEqualTo(8.0);
        assertThat(ThreadCpu.seconds(dir, ThreadCpu.SEAL)).isEqualTo(7.0);
        assertThat(ThreadCpu.seconds(dir, ThreadCpu.REQUESTS)).isEqualTo(11.0);
        assertThat(ThreadCpu.seconds(dir, List.of("GC Thread#", "logbloom-merge-"))).isEqualTo(4.0);
    }

    @Test
    void ingesterThreads_areToldApartInProc() throws Exception {
        // the ingester's own thread names, as /proc cuts them: the seal thread and the merge thread each match their
        // prefix and not the other's (they were "logbloom-ingest" both, and the merges' CPU could not be measured)
        try (Ingester ingester = new Ingester(IngestConfig.defaults(dir.resolve("wal")),
                new FileSystemObjectStore(dir.resolve("store")), Clock.systemUTC(), new PrometheusRegistry())) {
            // a thread names itself in /proc once it runs, a moment after it was started: read until both are there
            List<String> names = threadNames();
            for (long deadline = System.nanoTime() + 10_000_000_000L; System.nanoTime() < deadline
                    && !(names.stream().anyMatch(n -> ThreadCpu.SEAL.stream().anyMatch(n::startsWith))
                            && names.stream().anyMatch(n -> ThreadCpu.MERGES.stream().anyMatch(n::startsWith)));
                    names = threadNames()) {
                Thread.sleep(10);
            }
            assertThat(names).filteredOn(n -> ThreadCpu.SEAL.stream().anyMatch(n::startsWith))
                    .isNotEmpty().noneMatch(n -> ThreadCpu.MERGES.stream().anyMatch(n::startsWith));
            assertThat(names).filteredOn(n -> ThreadCpu.MERGES.stream().anyMatch(n::startsWith))
                    .isNotEmpty().noneMatch(n -> ThreadCpu.SEAL.stream().anyMatch(n::startsWith));
        }
    }

    /** The names of this JVM's threads as /proc keeps them (15 characters). */
    private static List<String> threadNames() throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    names.add(Files.readString(task.resolve("comm")).strip());
                } catch (NoSuchFileException ended) {
                    // a thread that ended while the directory was read
                }
            }
        }
        return names;
    }

    @Test
    void seconds_ofThisJvm_isTheCompilersWork() throws Exception {
        // this test JVM has compiled something by now; its main thread is not a compiler
        double seconds = ThreadCpu.seconds(ProcessHandle.current().pid(), ThreadCpu.COMPILERS);
        assertThat(seconds).isPositive();
    }
}
