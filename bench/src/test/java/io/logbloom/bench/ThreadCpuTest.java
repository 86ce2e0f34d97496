package io.logbloom.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
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
        task("22", "logbloom-merge-", "3000000000 1 1");
        task("23", "logbloom-ingest", "5000000000 1 1");
        task("24", "C2 CompilerThre", "7000000000 1 1");

        assertThat(ThreadCpu.seconds(dir, ThreadCpu.COLLECTOR)).isEqualTo(1.0);
        assertThat(ThreadCpu.seconds(dir, ThreadCpu.MERGE_ENCODERS)).isEqualTo(3.0);
        assertThat(ThreadCpu.seconds(dir, java.util.List.of("GC Thread#", "logbloom-merge-"))).isEqualTo(4.0);
    }

    @Test
    void seconds_ofThisJvm_isTheCompilersWork() throws Exception {
        // this test JVM has compiled something by now; its main thread is not a compiler
        double seconds = ThreadCpu.seconds(ProcessHandle.current().pid(), ThreadCpu.COMPILERS);
        assertThat(seconds).isPositive();
    }
}
