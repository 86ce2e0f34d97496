package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact per-row form of a bloom query: drops only entries the query cannot return. */
final class RowBloomTestTest {
    private static final Labels SERIES = Labels.of("app", "api");
    private static final LogEntry ROW = new LogEntry(1, "GET /users status=500",
            List.of(new Label("trace_id", "abc"), new Label("user", "bob")));

    @Test
    void leaves_testTheRowsMetadataAndLine() {
        assertThat(RowBloomTest.mayMatch(new BloomQuery.MetadataEquals("trace_id", "abc"), SERIES, ROW)).isTrue();
        assertThat(RowBloomTest.mayMatch(new BloomQuery.MetadataEquals("trace_id", "abd"), SERIES, ROW)).isFalse();
        assertThat(RowBloomTest.mayMatch(new BloomQuery.MetadataExists("user"), SERIES, ROW)).isTrue();
        assertThat(RowBloomTest.mayMatch(new BloomQuery.MetadataExists("span"), SERIES, ROW)).isFalse();
        assertThat(RowBloomTest.mayMatch(new BloomQuery.LineContains("status=500"), SERIES, ROW)).isTrue();
        assertThat(RowBloomTest.mayMatch(new BloomQuery.LineContains("STATUS"), SERIES, ROW)).isFalse();
        assertThat(RowBloomTest.mayMatch(BloomQuery.matchAll(), SERIES, ROW)).isTrue();
    }

    @Test
    void aStreamLabelOfTheSameName_neverDropsTheRow() {
        assertThat(RowBloomTest.mayMatch(new BloomQuery.MetadataEquals("app", "other"), SERIES, ROW)).isTrue();
        assertThat(RowBloomTest.mayMatch(new BloomQuery.MetadataExists("app"), SERIES, ROW)).isTrue();
    }

    @Test
    void andOr_combine() {
        BloomQuery hit = new BloomQuery.MetadataEquals("user", "bob");
        BloomQuery miss = new BloomQuery.LineContains("POST");
        assertThat(RowBloomTest.mayMatch(new BloomQuery.And(List.of(hit, miss)), SERIES, ROW)).isFalse();
        assertThat(RowBloomTest.mayMatch(new BloomQuery.Or(List.of(miss, hit)), SERIES, ROW)).isTrue();
        assertThat(RowBloomTest.mayMatch(new BloomQuery.Or(List.of(miss)), SERIES, ROW)).isFalse();
        assertThat(RowBloomTest.mayMatch(new BloomQuery.Or(List.of()), SERIES, ROW)).isTrue();
    }
}
