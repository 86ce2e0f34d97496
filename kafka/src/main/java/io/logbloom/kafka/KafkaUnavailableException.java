package io.logbloom.kafka;

import java.io.IOException;

/** Kafka did not acknowledge a push in time (brokers unreachable or refusing); the push was not accepted. */
public final class KafkaUnavailableException extends IOException {
    /** With a client-safe message and the Kafka failure. */
    public KafkaUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
