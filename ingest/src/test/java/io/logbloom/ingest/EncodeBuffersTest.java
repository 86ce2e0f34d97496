package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class EncodeBuffersTest {
    @Test
    void take_reusesAGivenBufferEmptied_whenLargeEnough() {
        EncodeBuffers buffers = new EncodeBuffers();
        WalCodec.Buffer first = buffers.take(1000);
        first.writeInt(42);
        buffers.give(first);
        WalCodec.Buffer again = buffers.take(500);
        assertThat(again).isSameAs(first);
        assertThat(again.size()).isZero();
        assertThat(buffers.kept()).isZero();
    }

    @Test
    void take_tooSmallKeptBuffer_dropped_andAFreshOneLargeEnoughReturned() {
        EncodeBuffers buffers = new EncodeBuffers();
        WalCodec.Buffer small = buffers.take(100);
        buffers.give(small);
        WalCodec.Buffer big = buffers.take(10_000);
        assertThat(big).isNotSameAs(small);
        assertThat(big.capacity()).isGreaterThanOrEqualTo(10_000);
        assertThat(buffers.kept()).isZero();
    }

    @Test
    void give_keepsAtMostMaxKept_andNothingOverTheSizeBound() {
        EncodeBuffers buffers = new EncodeBuffers();
        buffers.give(new WalCodec.Buffer(EncodeBuffers.MAX_KEPT_BYTES + 1));
        assertThat(buffers.kept()).isZero();
        for (int i = 0; i < EncodeBuffers.MAX_KEPT + 3; i++) {
            buffers.give(new WalCodec.Buffer(64));
        }
        assertThat(buffers.kept()).isEqualTo(EncodeBuffers.MAX_KEPT);
    }

    @Test
    void keptBytes_sumsTheKeptBuffersCapacity_notTheTakenOnes() {
        EncodeBuffers buffers = new EncodeBuffers();
        assertThat(buffers.keptBytes()).isZero();
        WalCodec.Buffer a = buffers.take(1000);
        WalCodec.Buffer b = buffers.take(3000);
        assertThat(buffers.keptBytes()).isZero();
        buffers.give(a);
        buffers.give(b);
        assertThat(buffers.keptBytes()).isEqualTo(a.capacity() + b.capacity()).isGreaterThanOrEqualTo(4000);
        assertThat(buffers.take(10)).as("last given, first taken").isSameAs(b);
        assertThat(buffers.keptBytes()).isEqualTo(a.capacity());
    }
}
