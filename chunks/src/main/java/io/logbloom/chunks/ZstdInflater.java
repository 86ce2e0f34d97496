package io.logbloom.chunks;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import java.lang.ref.Cleaner;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * Inflates zstd frames with native decompression contexts kept for reuse. {@code Zstd.decompressByteArray} creates
 * and frees a context (about 100 KiB of native memory) per call, which costs about 13 µs: more than inflating a
 * small column. A needle inflates a few columns of each block it reads, a merge every column of every part block,
 * so the readers of a component share one inflater: a call borrows an idle context (or creates one when none is
 * idle) and gives it back, keeping at most {@code maxIdle} of them; the idle ones are freed when the inflater
 * becomes unreachable. A pooled inflater starts with its {@code maxIdle} contexts created (about 20 KiB resident
 * each once used): a pool that fills on its first calls takes its "none idle" branch there and seldom after, so
 * code the JIT compiled over a long-used pool (a start-up warm-up's) would be thrown away at a new pool's first
 * calls, and a fresh server's first queries would pay for compiling it again.
 *
 * <p>A context whose inflate failed is freed, not kept: the next call starts from a fresh one.
 *
 * <p>Thread-safe: a context is used by one call at a time.
 */
public final class ZstdInflater {
    /** Frees native contexts of unreachable owners (one daemon thread for the package). */
    static final Cleaner CLEANER = Cleaner.create();

    private final ArrayBlockingQueue<ZstdDecompressCtx> idle;

    private ZstdInflater(int maxIdle) {
        this.idle = maxIdle == 0 ? null : new ArrayBlockingQueue<>(maxIdle);
        if (idle != null) {
            for (int i = 0; i < maxIdle; i++) {
                idle.add(new ZstdDecompressCtx());
            }
            ArrayBlockingQueue<ZstdDecompressCtx> contexts = idle;
            CLEANER.register(this, () -> {
                for (ZstdDecompressCtx context; (context = contexts.poll()) != null; ) {
                    context.close();
                }
            });
        }
    }

    /**
     * An inflater keeping up to {@code maxIdle} contexts for reuse, created now (size it to the threads that inflate at
     * once).
     *
     * @throws IllegalArgumentException when {@code maxIdle} is below 1
     */
    public static ZstdInflater pooled(int maxIdle) {
        if (maxIdle < 1) {
            throw new IllegalArgumentException("maxIdle must be at least 1, got " + maxIdle);
        }
        return new ZstdInflater(maxIdle);
    }

    /** An inflater that creates and frees a context per call (for one-off reads: tools, tests, rare paths). */
    public static ZstdInflater perCall() {
        return new ZstdInflater(0);
    }

    /**
     * Inflates the zstd frame {@code src[srcOffset, srcOffset + srcLength)} into {@code dst[dstOffset, dstOffset +
     * dstLength)}; returns the bytes written.
     *
     * @throws ZstdException when the frame is not valid zstd or does not fit
     */
    public int inflate(byte[] dst, int dstOffset, int dstLength, byte[] src, int srcOffset, int srcLength) {
        ZstdDecompressCtx context = idle == null ? null : idle.poll();
        if (context == null) {
            context = new ZstdDecompressCtx();
        }
        boolean keep = false;
        try {
            int n = context.decompressByteArray(dst, dstOffset, dstLength, src, srcOffset, srcLength);
            keep = true;
            return n;
        } finally {
            if (!keep || idle == null || !idle.offer(context)) {
                context.close();
            }
        }
    }

    /** How many contexts wait for reuse now (for tests). */
    int idleContexts() {
        return idle == null ? 0 : idle.size();
    }
}
