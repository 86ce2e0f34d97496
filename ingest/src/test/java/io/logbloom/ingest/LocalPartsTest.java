package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class LocalPartsTest {
    private static final Labels STREAM = Labels.of("app", "x");

    @TempDir
    Path dir;

    private static Map<Labels, ColumnarRows> rows(int n) {
        ColumnarRows rows = new ColumnarRows();
        for (int i = 0; i < n; i++) {
            rows.append(LogEntry.of(100 + i, "line " + i));
        }
        return Map.of(STREAM, rows);
    }

    @Test
    void writtenParts_areLoadedOnOpen_withTheirDirectoriesAndWalCoverage() throws IOException {
        LocalParts parts = new LocalParts(dir, ColumnarConfig.defaults());
        parts.add(parts.write("t", 7, rows(3)));
        parts.add(parts.write("t", 9, rows(2)));
        parts.add(parts.write("u", 9, rows(1)));

        LocalParts reopened = new LocalParts(dir, ColumnarConfig.defaults());

        assertThat(reopened.tenants()).containsExactly("t", "u");
        assertThat(reopened.parts("t")).extracting(LocalParts.Part::walSegment).containsExactly(7L, 9L);
        assertThat(reopened.parts("t").get(0).directory().rows()).isEqualTo(3);
        assertThat(reopened.coveredWalSegment("t")).isEqualTo(OptionalLong.of(9));
        assertThat(reopened.coveredWalSegment("nobody")).isEmpty();
        try (LocalParts.Reader r = reopened.open(reopened.parts("t").get(1))) {
            assertThat(r.reader().entries(0, 0, Long.MAX_VALUE)).extracting(LogEntry::line)
                    .containsExactly("line 0", "line 1");
        }
        // a part written after reopening never reuses a sequence number
        LocalParts.Part next = reopened.write("t", 10, rows(1));
        assertThat(next.sequence()).isGreaterThan(reopened.parts("u").get(0).sequence());
    }

    @Test
    void writtenPart_isInvisibleUntilAdded() throws IOException {
        LocalParts parts = new LocalParts(dir, ColumnarConfig.defaults());
        LocalParts.Part part = parts.write("t", 1, rows(1));
        assertThat(parts.parts("t")).isEmpty();
        parts.add(part);
        assertThat(parts.parts("t")).containsExactly(part);
        assertThat(parts.sizeBytes()).isEqualTo(Files.size(part.file()));
    }

    @Test
    void open_deletesUnfinishedTempFiles_andMovesCorruptPartsAside() throws IOException {
        LocalParts parts = new LocalParts(dir, ColumnarConfig.defaults());
        LocalParts.Part good = parts.write("t", 1, rows(5));
        LocalParts.Part bad = parts.write("t", 2, rows(5));
        Path tmp = Files.writeString(dir.resolve("t").resolve("0000000000000009-0000000000000003.lbp.tmp"), "half");
        byte[] bytes = Files.readAllBytes(bad.file());
        bytes[bytes.length - 30] ^= 0x40; // inside the directory: its checksum no longer matches
        Files.write(bad.file(), bytes);

        LocalParts reopened = new LocalParts(dir, ColumnarConfig.defaults());

        assertThat(reopened.parts("t")).extracting(LocalParts.Part::file).containsExactly(good.file());
        assertThat(tmp).doesNotExist();
        assertThat(bad.file()).doesNotExist();
        assertThat(bad.file().resolveSibling(bad.file().getFileName() + ".corrupt")).exists();
    }

    @Test
    void remove_forgetsAndDeletesTheFiles() throws IOException {
        LocalParts parts = new LocalParts(dir, ColumnarConfig.defaults());
        LocalParts.Part part = parts.write("t", 1, rows(1));
        parts.add(part);
        parts.remove(List.of(part));
        assertThat(parts.parts("t")).isEmpty();
        assertThat(part.file()).doesNotExist();
        assertThat(new LocalParts(dir, ColumnarConfig.defaults()).tenants()).isEmpty();
    }

    @Test
    void write_rejectsInvalidTenantsAndEmptyParts() throws IOException {
        LocalParts parts = new LocalParts(dir, ColumnarConfig.defaults());
        assertThatThrownBy(() -> parts.write("..", 1, rows(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> parts.write("t", 1, Map.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void parseName_acceptsOnlyPartNames() {
        assertThat(LocalParts.parseName("000000000000000a-00000000000000ff.lbp")).containsExactly(10L, 255L);
        assertThat(LocalParts.parseName("000000000000000a-00000000000000ff.lbp.tmp")).isNull();
        assertThat(LocalParts.parseName("zz00000000000000-00000000000000ff.lbp")).isNull();
        assertThat(LocalParts.parseName("notes.txt")).isNull();
    }
}
