package io.logbloom.api;

import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import java.io.IOException;
import java.util.List;

/**
 * Where the push routes hand decoded, enriched streams: the local ingester ({@code target: all}) or
 * Kafka through {@link DistributorPushTarget} ({@code target: distributor}).
 */
@FunctionalInterface
interface PushTarget {
    /** Validates, limits and stores (or forwards) one push; returns the accepted/rejected counts. */
    PushResult push(String tenant, List<PushStream> streams) throws IOException;
}
