package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import com.github.luben.zstd.ZstdCompressCtx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Rebuilding some rows' lines gives exactly those rows of the whole decoded column, tokenized or plain. */
final class ColumnarBlockLinesTest {
    private static ColumnarBlock block(boolean tokenized, boolean lazily) throws IOException {
        Random random = new Random(5);
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String line = tokenized
                    ? "ts=" + (1_000_000L * i) + " level=info path=/api/" + random.nextInt(100_000) + " status="
                            + (200 + random.nextInt(5)) + " bytes=" + random.nextInt(99_999) + " ünï " + i % 7
                            + (i % 11 == 0 ? "" : " " + ColumnarTestData.line(random))
                    : ColumnarTestData.hex(random, 40, false) + Long.toString(random.nextLong(), 36);
            entries.add(new LogEntry(i, i % 13 == 0 ? "" : line, List.of()));
        }
        byte[] bytes = ColumnarObjectWriter.write(ColumnarConfig.defaults(),
                Map.of(Labels.of("a", "b"), ColumnarRows.of(entries)));
        ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofBytes("lines", bytes));
        assertThat(reader.directory().blocks().get(0).lines().encoding())
                .isEqualTo(tokenized ? ColumnarEncoding.LINES_TOKENIZED : ColumnarEncoding.LINES);
        return lazily ? reader.readBlockLazily(0) : reader.readBlock(0);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void someRows_equalTheDecodedColumn(boolean tokenized) throws IOException {
        ColumnarLines all = block(tokenized, false).lines();
        Random random = new Random(9);
        for (int density : new int[] {0, 1, 50, 100}) {
            for (boolean lastWanted : new boolean[] {true, false}) { // the walk stops after the last wanted row
                ColumnarBlock block = block(tokenized, true);
                boolean[] wanted = new boolean[block.rows()];
                for (int row = 0; row < wanted.length; row++) {
                    wanted[row] = random.nextInt(100) < density;
                }
                wanted[wanted.length - 1] = density > 0 && lastWanted;
                assertSomeRows(block, wanted, all);
            }
        }
        for (int only : new int[] {0, 1, all.rows() / 2, all.rows() - 2}) { // a needle's one row
            boolean[] wanted = new boolean[all.rows()];
            wanted[only] = true;
            assertSomeRows(block(tokenized, true), wanted, all);
        }
    }

    private static void assertSomeRows(ColumnarBlock block, boolean[] wanted, ColumnarLines all) {
        String[] lines = block.lines(wanted);
        for (int row = 0; row < wanted.length; row++) {
            assertThat(lines[row]).as("row %d", row).isEqualTo(wanted[row] ? all.line(row) : null);
        }
    }

    /**
     * Sections damaged past their checksums (which a stored column has verified before this): where the whole decode
     * succeeds, the rows rebuilt equal its; where it fails, the rebuild is refused with a message naming the column,
     * or (damage the walk to the wanted row does not meet, or a rebuilt length the skipped rows do not add up) gives a
     * line. Never another exception. Refusals counted so that a rebuild that stopped checking would fail.
     */
    @Test
    void corruptSections_someRowsRefusedWithTheWholeDecode_orAgreeWithIt() {
        Random random = new Random(13);
        ColumnarRows rows = new ColumnarRows();
        for (int i = 0; i < 200; i++) {
            rows.append(0, ColumnarTestData.line(random) + " v=" + random.nextInt(1000), List.of());
        }
        int[] order = new int[rows.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        ByteSink out = new ByteSink(1024);
        try (ZstdCompressCtx zstd = new ZstdCompressCtx()) {
            new ColumnarLineTokens().encode(rows, order, 0, order.length, zstd, out);
        }
        byte[] payload = out.toByteArray();
        int middle = rows.size() / 2;
        int last = rows.size() - 1;
        int failures = 0;
        for (int trial = 0; trial < 1000; trial++) {
            byte[] corrupt = payload.clone();
            corrupt[random.nextInt(corrupt.length)] ^= (byte) (1 + random.nextInt(255));
            ColumnarLines whole;
            try {
                whole = new ColumnarLineTokenSections(corrupt, rows.size(), "fuzz").decode();
            } catch (ChunkFormatException e) {
                whole = null;
            }
            for (int wantedRow : new int[] {middle, last}) {
                boolean[] wanted = new boolean[rows.size()];
                wanted[wantedRow] = true;
                try {
                    String[] some = new ColumnarLineTokenSections(corrupt, rows.size(), "fuzz").lines(wanted);
                    if (whole != null) {
                        assertThat(some[wantedRow]).isEqualTo(whole.line(wantedRow));
                    }
                } catch (ChunkFormatException e) {
                    assertThat(e).hasMessageContaining("fuzz");
                    assertThat(whole).as("trial %d: row %d refused where the whole decode succeeds", trial, wantedRow)
                            .isNull();
                    failures++;
                }
            }
        }
        assertThat(failures).isGreaterThan(1400); // 1,572 of the 2,000 rebuilds with this seed
    }
}
