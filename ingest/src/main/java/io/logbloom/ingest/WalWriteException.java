package io.logbloom.ingest;

import java.io.IOException;

/**
 * The WAL could not take a record, so the push carrying it is refused (nothing of it was acknowledged
 * or kept): {@link #outOfSpace()} when the WAL volume is full (the HTTP edge answers 507), otherwise
 * another I/O failure (503). Both are retryable by the client once the operator has fixed the volume.
 */
public final class WalWriteException extends IOException {
    private final boolean outOfSpace;

    /** A refused WAL write; {@code outOfSpace} when the volume has no room for the record. */
    public WalWriteException(boolean outOfSpace, String message, IOException cause) {
        super(message, cause);
        this.outOfSpace = outOfSpace;
    }

    /** Whether the WAL volume ran out of space (as opposed to another I/O failure). */
    public boolean outOfSpace() {
        return outOfSpace;
    }
}
