package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The columnar format read through each real {@link RangeSource}: a file, the filesystem store and S3. */
final class ColumnarObjectStoreTest {
    private static final ColumnarConfig SMALL_BLOCKS = new ColumnarConfig(64, 4096, 3);

    @TempDir
    Path dir;

    private final Map<Labels, List<LogEntry>> streams = ColumnarTestData.streams(new Random(11), 6, 300);

    private void assertReadable(ColumnarObjectReader reader) throws IOException {
        ColumnarDirectory directory = reader.directory();
        for (int s = 0; s < directory.streams().size(); s++) {
            Labels labels = directory.streams().get(s).labels();
            assertThat(reader.entries(s, Long.MIN_VALUE, Long.MAX_VALUE))
                    .containsExactlyElementsOf(ColumnarTestData.expected(streams.get(labels)));
        }
    }

    @Test
    void fileSource_streamedWrite_readsBack() throws IOException {
        Path file = dir.resolve("object.lbco");
        List<Labels> order = new ArrayList<>(streams.keySet());
        order.sort(ColumnarDirectory.STREAM_ORDER);
        try (OutputStream out = Files.newOutputStream(file);
                ColumnarObjectWriter writer = new ColumnarObjectWriter(out, SMALL_BLOCKS)) {
            for (Labels labels : order) {
                writer.add(labels, ColumnarRows.of(streams.get(labels)));
            }
            writer.finish();
        }
        try (FileRangeSource source = RangeSource.ofFile(file)) {
            assertReadable(new ColumnarObjectReader(source));
            assertThatThrownBy(() -> source.read(Files.size(file) - 2, 10))
                    .isInstanceOf(ChunkFormatException.class)
                    .hasMessageContaining("truncated");
        }
    }

    @Test
    void objectStores_directoryOpenedWithOneRequest() throws Exception {
        byte[] bytes = ColumnarObjectWriter.write(SMALL_BLOCKS, ColumnarTestData.rows(streams));
        try (ObjectStore fs = new FileSystemObjectStore(dir.resolve("one-request"));
                S3TestServer server = S3TestServer.start(); ObjectStore s3 = new S3ObjectStore(server.config("one/"))) {
            for (ObjectStore store : List.of(fs, s3)) {
                store.put("tenant/object", bytes);
                List<String> calls = new ArrayList<>();
                ObjectStore counted = new ForwardingObjectStore(store) {
                    @Override
                    public ObjectTail getTail(String key, int maxLength) throws IOException {
                        calls.add("tail");
                        return super.getTail(key, maxLength);
                    }

                    @Override
                    public byte[] getRange(String key, long offset, int length) throws IOException {
                        calls.add("range");
                        return super.getRange(key, offset, length);
                    }

                    @Override
                    public long size(String key) throws IOException {
                        calls.add("size");
                        return super.size(key);
                    }
                };
                ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofObject(counted, "tenant/object"));
                assertThat(reader.directory().blocks()).isNotEmpty();
                assertThat(calls).as("the size comes with the tail").containsExactly("tail");
                assertReadable(reader);
            }
        }
    }

    @Test
    void objectStores_filesystemAndS3() throws Exception {
        byte[] bytes = ColumnarObjectWriter.write(SMALL_BLOCKS, ColumnarTestData.rows(streams));
        try (ObjectStore fs = new FileSystemObjectStore(dir.resolve("store"))) {
            fs.put("tenant/object", bytes);
            assertReadable(new ColumnarObjectReader(RangeSource.ofObject(fs, "tenant/object")));
            assertReadable(new ColumnarObjectReader(RangeSource.ofObject(fs, "tenant/object", bytes.length)));
        }
        try (S3TestServer server = S3TestServer.start(); ObjectStore s3 = new S3ObjectStore(server.config("col/"))) {
            s3.put("tenant/object", bytes);
            assertReadable(new ColumnarObjectReader(RangeSource.ofObject(s3, "tenant/object")));
            assertThatThrownBy(() -> new ColumnarObjectReader(RangeSource.ofObject(s3, "tenant/missing")).directory())
                    .isInstanceOf(ObjectNotFoundException.class);
        }
    }
}
