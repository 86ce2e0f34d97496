package io.logbloom.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class TempTreesTest {
    @TempDir
    Path dir;

    @Test
    void delete_removesTheWholeTree_andIgnoresAMissingOne() throws Exception {
        Path tree = dir.resolve("tree");
        Files.createDirectories(tree.resolve("a/b"));
        Files.writeString(tree.resolve("a/b/file"), "x");
        Files.writeString(tree.resolve("top"), "y");

        TempTrees.delete(tree);
        TempTrees.delete(tree);

        assertThat(tree).doesNotExist();
        assertThat(dir).exists();
    }

    /** A report stopped with SIGTERM (as Ctrl-C or a killed job) leaves no data set behind. */
    @Test
    void createDeletedOnExit_treeGoneAfterTheJvmIsTerminated() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Holder.class.getName())
                .redirectErrorStream(true).start();
        Path created;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            created = Path.of(out.readLine());
            assertThat(created.resolve("data/file")).exists();
            child.destroy(); // SIGTERM
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            child.destroyForcibly();
        }
        assertThat(created).doesNotExist();
    }

    /** The child: makes a tree that is to be deleted on exit, prints its path, and waits to be stopped. */
    static final class Holder {
        public static void main(String[] args) throws Exception {
            Path tree = TempTrees.createDeletedOnExit("temptrees-test");
            Files.createDirectories(tree.resolve("data"));
            Files.writeString(tree.resolve("data/file"), "rows");
            System.out.println(tree);
            System.out.flush();
            Thread.sleep(60_000);
        }
    }
}
