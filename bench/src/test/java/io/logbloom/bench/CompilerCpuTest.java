package io.logbloom.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class CompilerCpuTest {
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

        assertThat(CompilerCpu.seconds(dir)).isEqualTo(2.0);
    }

    @Test
    void seconds_ofThisJvm_isTheCompilersWork() throws Exception {
        // this test JVM has compiled something by now; its main thread is not a compiler
        double seconds = CompilerCpu.seconds(ProcessHandle.current().pid());
        assertThat(seconds).isPositive();
    }
}
