package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.ColumnarBlock;
import io.logbloom.chunks.ColumnarConfig;
import io.logbloom.chunks.ColumnarObjectReader;
import io.logbloom.chunks.ColumnarObjectWriter;
import io.logbloom.chunks.ColumnarRows;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.chunks.RangeSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The exact per-row form of a bloom query: drops only entries the query cannot return. */
final class RowBloomTestTest {
    private static final Labels SERIES = Labels.of("app", "api");
    /** Row 0 of a real block: "GET /users status=500" with trace_id=abc and user=bob. */
    private static final ColumnarBlock BLOCK = block(new LogEntry(1, "GET /users status=500",
            List.of(new Label("trace_id", "abc"), new Label("user", "bob"))));

    private static ColumnarBlock block(LogEntry entry) {
        try {
            byte[] object = ColumnarObjectWriter.write(ColumnarConfig.defaults(),
                    Map.of(SERIES, ColumnarRows.of(List.of(entry))));
            return new ColumnarObjectReader(RangeSource.ofBytes("row-test", object)).readBlock(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void leaves_testTheRowsMetadataAndLine() {
        assertThat(RowBloomTest.rows(new BloomQuery.MetadataEquals("trace_id", "abc"), SERIES, BLOCK)[0]).isTrue();
        assertThat(RowBloomTest.rows(new BloomQuery.MetadataEquals("trace_id", "abd"), SERIES, BLOCK)[0]).isFalse();
        assertThat(RowBloomTest.rows(new BloomQuery.MetadataExists("user"), SERIES, BLOCK)[0]).isTrue();
        assertThat(RowBloomTest.rows(new BloomQuery.MetadataExists("span"), SERIES, BLOCK)[0]).isFalse();
        assertThat(RowBloomTest.rows(new BloomQuery.LineContains("status=500"), SERIES, BLOCK)[0]).isTrue();
        assertThat(RowBloomTest.rows(new BloomQuery.LineContains("STATUS"), SERIES, BLOCK)[0]).isFalse();
        assertThat(RowBloomTest.rows(BloomQuery.matchAll(), SERIES, BLOCK)[0]).isTrue();
    }

    @Test
    void aStreamLabelOfTheSameName_neverDropsTheRow() {
        assertThat(RowBloomTest.rows(new BloomQuery.MetadataEquals("app", "other"), SERIES, BLOCK)[0]).isTrue();
        assertThat(RowBloomTest.rows(new BloomQuery.MetadataExists("app"), SERIES, BLOCK)[0]).isTrue();
    }

    @Test
    void andOr_combine() {
        BloomQuery hit = new BloomQuery.MetadataEquals("user", "bob");
        BloomQuery miss = new BloomQuery.LineContains("POST");
        assertThat(RowBloomTest.rows(new BloomQuery.And(List.of(hit, miss)), SERIES, BLOCK)[0]).isFalse();
        assertThat(RowBloomTest.rows(new BloomQuery.Or(List.of(miss, hit)), SERIES, BLOCK)[0]).isTrue();
        assertThat(RowBloomTest.rows(new BloomQuery.Or(List.of(miss)), SERIES, BLOCK)[0]).isFalse();
        assertThat(RowBloomTest.rows(new BloomQuery.Or(List.of()), SERIES, BLOCK)[0]).isTrue();
    }
}
