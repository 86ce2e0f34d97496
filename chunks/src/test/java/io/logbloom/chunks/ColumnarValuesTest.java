package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The whole-column tests of a metadata column agree with its per-row values, in every encoding. */
final class ColumnarValuesTest {
    private static final List<String> KEYS = List.of("constant", "dictionary", "hex_lower", "hex_upper", "hex_varied",
            "raw", "sparse");

    /** One block with a column of each encoding (as {@code ColumnarFormatTest} checks them chosen). */
    private static ColumnarBlock block(boolean lazily) throws IOException {
        Random random = new Random(11);
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            List<Label> metadata = new ArrayList<>();
            metadata.add(new Label("constant", "same"));
            metadata.add(new Label("dictionary", "value-" + random.nextInt(3)));
            metadata.add(new Label("hex_lower", ColumnarTestData.hex(random, 16, false)));
            metadata.add(new Label("hex_upper", ColumnarTestData.hex(random, 16, true)));
            metadata.add(new Label("hex_varied", ColumnarTestData.hex(random, 1 + random.nextInt(8), false)));
            metadata.add(new Label("raw", Long.toString(random.nextLong(), 36) + "ü"));
            if (i % 3 == 0) {
                metadata.add(new Label("sparse", i % 2 == 0 ? "" : "x" + i));
            }
            entries.add(new LogEntry(1_000L + i, "line " + i, metadata));
        }
        byte[] bytes = ColumnarObjectWriter.write(ColumnarConfig.defaults(),
                Map.of(Labels.of("a", "b"), ColumnarRows.of(entries)));
        ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofBytes("values", bytes));
        assertThat(reader.directory().blocks()).hasSize(1);
        return lazily ? reader.readBlockLazily(0) : reader.readBlock(0);
    }

    @Test
    void rowsEqualTo_agreesWithValue_forEveryEncodingAndNeedle() throws IOException {
        ColumnarBlock block = block(false);
        for (String key : KEYS) {
            ColumnarValues column = block.metadata(key);
            Set<String> needles = new LinkedHashSet<>(List.of("", "same", "value-1", "x3", "X", "abc", "0g", "ü"));
            for (int row = 0; row < column.rows(); row += 7) {
                String value = column.value(row);
                if (value != null) {
                    needles.add(value);
                    needles.add(value.toUpperCase(java.util.Locale.ROOT));
                    needles.add(value.toLowerCase(java.util.Locale.ROOT));
                    needles.add(value + "0");
                    needles.add(value.substring(0, value.length() / 2));
                }
            }
            for (String needle : needles) {
                boolean[] equal = column.rowsEqualTo(needle);
                for (int row = 0; row < column.rows(); row++) {
                    assertThat(equal[row]).as("%s row %d = '%s'", key, row, needle)
                            .isEqualTo(needle.equals(column.value(row)));
                }
            }
            boolean[] present = column.rowsPresent();
            for (int row = 0; row < column.rows(); row++) {
                assertThat(present[row]).as("%s row %d present", key, row).isEqualTo(column.isPresent(row));
            }
        }
    }

    @Test
    void absentColumn_matchesNothing() throws IOException {
        ColumnarValues column = block(false).metadata("missing");
        assertThat(column.rowsEqualTo("")).containsOnly(false);
        assertThat(column.rowsPresent()).containsOnly(false);
    }

    @Test
    void lazilyReadBlock_decodesTheSameRows() throws IOException {
        ColumnarBlock eager = block(false);
        ColumnarBlock lazy = block(true);
        assertThat(lazy.keys()).isEqualTo(eager.keys());
        assertThat(lazy.entries()).isEqualTo(eager.entries());
    }
}
