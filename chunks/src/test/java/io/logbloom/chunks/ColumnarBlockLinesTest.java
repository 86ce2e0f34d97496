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
import org.junit.jupiter.params.provider.EnumSource;

/** Rebuilding some rows' lines gives exactly those rows of the whole decoded column, tokenized or plain. */
final class ColumnarBlockLinesTest {
    /** Lines of a block: tokenized with a small dictionary, tokenized with hundreds of tokens, or stored plain. */
    enum Kind { TOKENIZED, MANY_TOKENS, PLAIN }

    private static ColumnarBlock block(Kind kind, boolean lazily) throws IOException {
        Random random = new Random(5);
        List<LogEntry> entries = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String line = switch (kind) {
                case TOKENIZED -> "ts=" + (1_000_000L * i) + " level=info path=/api/" + random.nextInt(100_000)
                        + " status=" + (200 + random.nextInt(5)) + " bytes=" + random.nextInt(99_999) + " ünï " + i % 7
                        + (i % 11 == 0 ? "" : " " + ColumnarTestData.line(random));
                // ids from 126 up take two code bytes, whose last byte can be 0 or 1 (a number's or a line end's
                // one-byte code): the row skip must not count those
                case MANY_TOKENS -> "n=" + random.nextInt(1000) + " user=" + word(random) + " " + word(random)
                        + (i % 5 == 0 ? "" : " took " + random.nextInt(100) + "ms " + word(random));
                case PLAIN -> ColumnarTestData.hex(random, 40, false) + Long.toString(random.nextLong(), 36);
            };
            entries.add(new LogEntry(i, i % 13 == 0 ? "" : line, List.of()));
        }
        byte[] bytes = ColumnarObjectWriter.write(ColumnarConfig.defaults(),
                Map.of(Labels.of("a", "b"), ColumnarRows.of(entries)));
        ColumnarObjectReader reader = new ColumnarObjectReader(RangeSource.ofBytes("lines", bytes));
        assertThat(reader.directory().blocks().get(0).lines().encoding())
                .isEqualTo(kind == Kind.PLAIN ? ColumnarEncoding.LINES : ColumnarEncoding.LINES_TOKENIZED_RANGES);
        return lazily ? reader.readBlockLazily(0) : reader.readBlock(0);
    }

    /** One of 300 words of three letters, so a block of these lines has hundreds of distinct tokens, each repeated. */
    private static String word(Random random) {
        int w = random.nextInt(300);
        return new String(new char[] {(char) ('a' + w % 26), (char) ('a' + w / 26 % 26), 'q'});
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void someRows_equalTheDecodedColumn(Kind kind) throws IOException {
        ColumnarLines all = block(kind, false).lines();
        Random random = new Random(9);
        for (int density : new int[] {0, 1, 50, 100}) {
            for (boolean lastWanted : new boolean[] {true, false}) { // the walk stops after the last wanted row
                ColumnarBlock block = block(kind, true);
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
            assertSomeRows(block(kind, true), wanted, all);
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
            new ColumnarLineTokens().encode(rows, order, 0, order.length, zstd, out, null);
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
                whole = new ColumnarLineTokenSections(corrupt, rows.size(), true, "fuzz").decode();
            } catch (ChunkFormatException e) {
                whole = null;
            }
            for (int wantedRow : new int[] {middle, last}) {
                boolean[] wanted = new boolean[rows.size()];
                wanted[wantedRow] = true;
                try {
                    String[] some = new ColumnarLineTokenSections(corrupt, rows.size(), true, "fuzz").lines(wanted);
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
