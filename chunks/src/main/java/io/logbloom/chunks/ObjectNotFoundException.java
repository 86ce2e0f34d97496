package io.logbloom.chunks;

import java.io.IOException;

/** Thrown by an {@link ObjectStore} read when no object exists under the key. */
public final class ObjectNotFoundException extends IOException {
    public ObjectNotFoundException(String key) {
        super("object not found: " + key);
    }
}
