package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class FileSystemObjectStoreTest extends ObjectStoreContractTest {
    @TempDir
    Path root;

    @Override
    protected ObjectStore createStore() throws Exception {
        return new FileSystemObjectStore(root);
    }

    @Test
    void put_leavesNoTemporaryFiles_andMapsKeysToFiles() throws Exception {
        try (ObjectStore store = new FileSystemObjectStore(root)) {
            store.put("t/a/b", new byte[] {1, 2, 3});
            assertThat(Files.readAllBytes(root.resolve("objects/t/a/b"))).containsExactly(1, 2, 3);
            try (var staged = Files.list(root.resolve("tmp"))) {
                assertThat(staged).isEmpty();
            }
        }
    }

    @Test
    void construction_removesTemporaryFilesLeftByACrash() throws Exception {
        Files.createDirectories(root.resolve("tmp"));
        Files.write(root.resolve("tmp/half-written.tmp"), new byte[] {9});
        try (ObjectStore store = new FileSystemObjectStore(root)) {
            assertThat(store.list("")).isEmpty();
            try (var staged = Files.list(root.resolve("tmp"))) {
                assertThat(staged).isEmpty();
            }
        }
    }

    @Test
    void reopen_seesEarlierObjects() throws Exception {
        try (ObjectStore store = new FileSystemObjectStore(root)) {
            store.put("x/y", new byte[] {7});
        }
        try (ObjectStore store = new FileSystemObjectStore(root)) {
            assertThat(store.get("x/y")).containsExactly(7);
        }
    }
}
