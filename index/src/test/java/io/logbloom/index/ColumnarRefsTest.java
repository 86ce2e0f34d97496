package io.logbloom.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarDirectory;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.RangeSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

final class ColumnarRefsTest {
    @Test
    void of_oneRefPerSeries_spanningItsRowsAndBlocks_withTheObjectsChecksum() throws Exception {
        Map<Labels, ColumnarRows> streams = new LinkedHashMap<>();
        for (String app : List.of("web", "api")) {
            ColumnarRows rows = new ColumnarRows();
            int n = app.equals("web") ? 300 : 7;
            for (int i = 0; i < n; i++) {
                rows.append(new LogEntry(1_000 + 10L * i, app + " line " + i + " " + "x".repeat(200), List.of()));
            }
            streams.put(Labels.of("app", app), rows);
        }
        ColumnarConfig format = ColumnarConfig.defaults().withMaxRawBytesPerBlock(16 << 10);
        byte[] object = ColumnarObjectWriter.write(format, streams);
        ColumnarDirectory directory = new ColumnarObjectReader(RangeSource.ofBytes("o", object)).directory();

        List<SeriesChunks> refs = ColumnarRefs.of("t", "t/objects/o.lbo", object, directory);

        CRC32C crc = new CRC32C();
        crc.update(object, 0, object.length);
        assertThat(refs).hasSize(2);
        for (SeriesChunks s : refs) {
            int stream = directory.indexOf(s.labels());
            long blockBytes = directory.blocksOf(stream).stream().mapToLong(b -> b.length()).sum();
            assertThat(s.chunks()).singleElement().satisfies(ref -> {
                assertThat(ref.tenant()).isEqualTo("t");
                assertThat(ref.objectKey()).isEqualTo("t/objects/o.lbo");
                assertThat(ref.fingerprint()).isEqualTo(s.labels().fingerprint());
                assertThat(ref.checksum()).isEqualTo((int) crc.getValue());
                assertThat(ref.entries()).isEqualTo(s.labels().get("app").equals("web") ? 300 : 7);
                assertThat(ref.fromNanos()).isEqualTo(1_000);
                assertThat(ref.throughNanos()).isEqualTo(1_000 + 10L * (ref.entries() - 1));
                assertThat((long) ref.sizeBytes()).isEqualTo(blockBytes);
            });
        }
        assertThat(directory.blocksOf(directory.indexOf(Labels.of("app", "web")))).as("several blocks").hasSizeGreaterThan(1);
    }
}
