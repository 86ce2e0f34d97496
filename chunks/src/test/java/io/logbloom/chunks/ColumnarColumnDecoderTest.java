package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Decoding payloads that passed their checksum but are wrong (a writer bug) fails cleanly, never with another exception. */
final class ColumnarColumnDecoderTest {
    @Test
    void corruptPayloads_ofEveryColumn_failWithChunkFormatExceptionOnly() throws IOException {
        Random random = new Random(21);
        byte[] bytes = ColumnarObjectWriter.write(new ColumnarConfig(64, 8192, 3),
                ColumnarTestData.rows(ColumnarTestData.streams(random, 4, 200)));
        ColumnarDirectory directory = new ColumnarObjectReader(RangeSource.ofBytes("o", bytes)).directory();
        int failures = 0;
        int trials = 0;
        for (ColumnarBlockInfo block : directory.blocks()) {
            for (ColumnarColumnInfo column : block.columns()) {
                byte[] payload = ColumnarColumnDecoder.payload(bytes, (int) column.offset(), column, "o", ZstdInflater.perCall());
                for (int trial = 0; trial < 40; trial++) {
                    byte[] corrupt = payload.clone();
                    if (corrupt.length > 0) {
                        corrupt[random.nextInt(corrupt.length)] ^= (byte) (1 + random.nextInt(255));
                    }
                    trials++;
                    try {
                        switch (column.kind()) {
                            case TIMESTAMPS -> ColumnarColumnDecoder.timestamps(corrupt, column, block.rows(), "o");
                            case LINES -> ColumnarColumnDecoder.lines(corrupt, column, block.rows(), "o");
                            case METADATA -> ColumnarColumnDecoder.metadata(corrupt, column, block.rows(), "o");
                        }
                    } catch (ChunkFormatException e) {
                        assertThat(e).hasMessageContaining("o");
                        failures++;
                    }
                }
            }
        }
        assertThat(trials).isGreaterThan(500);
        assertThat(failures).isGreaterThan(trials / 10);
    }
}
