package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The behaviour every {@link ObjectStore} backend must share; subclasses supply a fresh, empty store. */
public abstract class ObjectStoreContractTest {
    private ObjectStore store;

    /** A fresh, empty store. */
    protected abstract ObjectStore createStore() throws Exception;

    @BeforeEach
    void open() throws Exception {
        store = createStore();
    }

    @AfterEach
    void closeStore() throws Exception {
        store.close();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void put_thenGet_returnsSameBytes() throws Exception {
        byte[] data = new byte[100_000];
        new Random(1).nextBytes(data);
        store.put("tenant/0000000000000001/a-b-c", data);
        assertThat(store.get("tenant/0000000000000001/a-b-c")).isEqualTo(data);
        assertThat(store.exists("tenant/0000000000000001/a-b-c")).isTrue();
    }

    @Test
    void putFile_storesTheFilesBytes_andLeavesTheFile(@TempDir Path dir) throws Exception {
        byte[] data = new byte[300_000];
        new Random(2).nextBytes(data);
        Path file = dir.resolve("object.tmp");
        Files.write(file, data);
        store.put("k/file", bytes("replaced"));
        store.putFile("k/file", file);
        assertThat(store.get("k/file")).isEqualTo(data);
        assertThat(file).exists().hasBinaryContent(data);
    }

    @Test
    void put_emptyObject() throws Exception {
        store.put("empty", new byte[0]);
        assertThat(store.get("empty")).isEmpty();
        assertThat(store.exists("empty")).isTrue();
    }

    @Test
    void put_overwrites() throws Exception {
        store.put("k", bytes("first value"));
        store.put("k", bytes("second"));
        assertThat(store.get("k")).isEqualTo(bytes("second"));
        assertThat(store.list("")).containsExactly("k");
    }

    @Test
    void get_missing_throwsObjectNotFound() {
        assertThatThrownBy(() -> store.get("no/such/key"))
                .isInstanceOf(ObjectNotFoundException.class)
                .hasMessageContaining("no/such/key");
        assertThatThrownBy(() -> store.getRange("no/such/key", 0, 10)).isInstanceOf(ObjectNotFoundException.class);
        assertThatThrownBy(() -> store.getRange("no/such/key", 0, 0)).isInstanceOf(ObjectNotFoundException.class);
    }

    @Test
    void get_prefixOfExistingKey_isNotFound() throws Exception {
        store.put("dir/file", bytes("x"));
        assertThatThrownBy(() -> store.get("dir")).isInstanceOf(ObjectNotFoundException.class);
        assertThat(store.exists("dir")).isFalse();
    }

    @Test
    void getRange_returnsSliceClippedAtEnd() throws Exception {
        store.put("r", bytes("0123456789"));
        assertThat(store.getRange("r", 0, 3)).isEqualTo(bytes("012"));
        assertThat(store.getRange("r", 4, 2)).isEqualTo(bytes("45"));
        assertThat(store.getRange("r", 8, 10)).isEqualTo(bytes("89"));
        assertThat(store.getRange("r", 10, 5)).isEmpty();
        assertThat(store.getRange("r", 3, 0)).isEmpty();
    }

    @Test
    void size_isObjectLength_missingIsNotFound() throws Exception {
        store.put("s", bytes("0123456789"));
        store.put("empty", new byte[0]);
        assertThat(store.size("s")).isEqualTo(10);
        assertThat(store.size("empty")).isZero();
        assertThatThrownBy(() -> store.size("no/such/key")).isInstanceOf(ObjectNotFoundException.class);
    }

    @Test
    void getTail_lastBytesAndSize_wholeObjectWhenShorter() throws Exception {
        store.put("t", bytes("0123456789"));
        store.put("empty", new byte[0]);
        byte[] large = new byte[200_000];
        new Random(3).nextBytes(large);
        store.put("large", large);

        assertThat(store.getTail("t", 3).bytes()).isEqualTo(bytes("789"));
        assertThat(store.getTail("t", 3).objectSize()).isEqualTo(10);
        assertThat(store.getTail("t", 3).offset()).isEqualTo(7);
        assertThat(store.getTail("t", 10).bytes()).isEqualTo(bytes("0123456789"));
        assertThat(store.getTail("t", 1 << 16).bytes()).isEqualTo(bytes("0123456789"));
        assertThat(store.getTail("t", 1 << 16).objectSize()).isEqualTo(10);
        assertThat(store.getTail("t", 0).bytes()).isEmpty();
        assertThat(store.getTail("t", 0).objectSize()).isEqualTo(10);
        assertThat(store.getTail("empty", 5).bytes()).isEmpty();
        assertThat(store.getTail("empty", 5).objectSize()).isZero();
        ObjectTail tail = store.getTail("large", 65_536);
        assertThat(tail.objectSize()).isEqualTo(large.length);
        assertThat(tail.bytes()).isEqualTo(java.util.Arrays.copyOfRange(large, large.length - 65_536, large.length));
        assertThatThrownBy(() -> store.getTail("no/such/key", 10)).isInstanceOf(ObjectNotFoundException.class);
        assertThatThrownBy(() -> store.getTail("t", -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void getRange_negative_rejected() {
        assertThatThrownBy(() -> store.getRange("r", -1, 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> store.getRange("r", 0, -3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-3");
    }

    @Test
    void exists_missing_false() throws Exception {
        assertThat(store.exists("nothing")).isFalse();
    }

    @Test
    void list_byPrefix_sorted() throws Exception {
        for (String key : List.of("b/2", "a/1", "a/10", "a/2", "ab/x", "c")) {
            store.put(key, bytes(key));
        }
        assertThat(store.list("")).containsExactly("a/1", "a/10", "a/2", "ab/x", "b/2", "c");
        assertThat(store.list("a")).containsExactly("a/1", "a/10", "a/2", "ab/x");
        assertThat(store.list("a/")).containsExactly("a/1", "a/10", "a/2");
        assertThat(store.list("a/1")).containsExactly("a/1", "a/10");
        assertThat(store.list("zzz/")).isEmpty();
        assertThat(store.list("a/1/deeper")).isEmpty();
    }

    @Test
    void list_manyKeys_paginated() throws Exception {
        // more keys than one list page of the backend under test (S3ObjectStoreTest uses 16-key pages)
        List<String> expected = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> puts = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                String key = String.format("many/%05d", i);
                expected.add(key);
                puts.add(pool.submit(() -> {
                    store.put(key, new byte[] {1});
                    return null;
                }));
            }
            for (Future<?> put : puts) {
                put.get();
            }
        } finally {
            pool.shutdown();
        }
        assertThat(store.list("many/")).isEqualTo(expected);
    }

    @Test
    void delete_removes_andIsIdempotent() throws Exception {
        store.put("d/x", bytes("x"));
        store.delete("d/x");
        assertThat(store.exists("d/x")).isFalse();
        assertThat(store.list("d/")).isEmpty();
        store.delete("d/x");
        store.delete("never/was");
    }

    @Test
    void concurrentPutsOfOneKey_leaveOneWholeValue() throws Exception {
        byte[] a = new byte[50_000];
        byte[] b = new byte[50_000];
        java.util.Arrays.fill(a, (byte) 'a');
        java.util.Arrays.fill(b, (byte) 'b');
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> puts = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                byte[] value = i % 2 == 0 ? a : b;
                puts.add(pool.submit(() -> {
                    store.put("race", value);
                    byte[] read = store.get("race");
                    assertThat(read).satisfiesAnyOf(r -> assertThat(r).isEqualTo(a), r -> assertThat(r).isEqualTo(b));
                    return null;
                }));
            }
            for (Future<?> put : puts) {
                put.get();
            }
        } finally {
            pool.shutdown();
        }
        assertThat(store.list("")).containsExactly("race");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/abs", "a//b", "a/../b", "..", ".", "a/.", "../escape", "a/", "back\\slash",
        "nul\u0000byte", "new\nline"})
    void badKeys_rejectedWithTheKey(String key) throws Exception {
        assertThatThrownBy(() -> store.put(key, bytes("x"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("object key");
        assertThatThrownBy(() -> store.get(key)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.exists(key)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.delete(key)).isInstanceOf(IllegalArgumentException.class);
        assertThat(store.list("")).isEmpty();
    }

    @Test
    void chunkRefKey_roundTripsAChunk() throws Exception {
        MemChunk chunk = new MemChunk(ChunkConfig.defaults());
        chunk.append(LogEntry.of(1_000, "hello"));
        byte[] encoded = chunk.encode();
        ChunkRef ref = Chunk.decode(encoded).ref("tenant.with-odd_chars(1)", Labels.of("app", "x").fingerprint());
        store.put(ref.objectKey(), encoded);
        Chunk read = Chunk.decode(store.get(ref.objectKey()));
        assertThat(Chunk.checksum(read.bytes())).isEqualTo(ref.checksum());
        assertThat(read.entries(0, 2_000, Direction.FORWARD)).containsExactly(LogEntry.of(1_000, "hello"));
        assertThat(store.list("tenant.with-odd_chars(1)/")).containsExactly(ref.objectKey());
    }
}
