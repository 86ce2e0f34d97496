package io.logbloom.api;

/**
 * A configuration file or flag that cannot be used: the message names the key path (for example
 * {@code limits.max_line_size}) and the offending value. Immutable.
 */
public final class ConfigException extends IllegalArgumentException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
