package io.logbloom.kafka;

import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import java.io.IOException;
import java.util.List;

/** Where a {@link PartitionConsumer} puts records: the ingester ({@code Ingester::pushAdmitted}, {@code Ingester::flushAll}). */
public interface PartitionSink {
    /** Stores admitted streams of one record; throws when nothing was stored and the record must be retried. */
    PushResult pushAdmitted(String tenant, List<PushStream> streams) throws IOException;

    /** Returns once everything stored before the call is durable in the object store. */
    void flushAll() throws IOException;
}
