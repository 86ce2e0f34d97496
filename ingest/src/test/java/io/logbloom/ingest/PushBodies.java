package io.logbloom.ingest;

import com.google.protobuf.Timestamp;
import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import io.logbloom.ingest.proto.PushProto;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.xerial.snappy.Snappy;

/** Builds push bodies the way Loki clients do: generated protobuf classes + snappy block compression. */
final class PushBodies {
    private PushBodies() {}

    static byte[] protobuf(List<PushStream> streams) {
        PushProto.PushRequest.Builder request = PushProto.PushRequest.newBuilder();
        for (PushStream s : streams) {
            PushProto.StreamAdapter.Builder stream = PushProto.StreamAdapter.newBuilder().setLabels(s.labels());
            for (LogEntry e : s.entries()) {
                PushProto.EntryAdapter.Builder entry = PushProto.EntryAdapter.newBuilder()
                        .setTimestamp(Timestamp.newBuilder()
                                .setSeconds(Math.floorDiv(e.timestampNanos(), 1_000_000_000L))
                                .setNanos((int) Math.floorMod(e.timestampNanos(), 1_000_000_000L)))
                        .setLine(e.line());
                for (Label l : e.metadata()) {
                    entry.addStructuredMetadata(
                            PushProto.LabelPairAdapter.newBuilder().setName(l.name()).setValue(l.value()));
                }
                stream.addEntries(entry);
            }
            request.addStreams(stream);
        }
        try {
            return Snappy.compress(request.build().toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
