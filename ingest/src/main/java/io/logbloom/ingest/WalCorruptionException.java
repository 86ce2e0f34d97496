package io.logbloom.ingest;

import java.io.IOException;

/** Thrown when a WAL segment other than the newest is damaged, so replay cannot trust it. */
public final class WalCorruptionException extends IOException {
    public WalCorruptionException(String message) {
        super(message);
    }
}
