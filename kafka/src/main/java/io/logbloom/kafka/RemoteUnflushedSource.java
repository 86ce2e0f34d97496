package io.logbloom.kafka;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.IndexReader;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.SeriesChunks;
import io.logbloom.querier.UnflushedSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The querier role's unflushed data: asks every ingester announced on the members topic (together
 * they own every partition) for its unflushed rows over {@code POST /internal/unflushed}, in
 * parallel, and merges the answers per stream.
 *
 * <p><b>Consistency.</b> {@link #snapshot} asks the ingesters first and reads the bucket's index
 * after, so a row an ingester uploads in between is seen twice rather than not at all; the querier
 * drops identical entries of a stream while merging. Rows re-read by a partition's new owner after
 * a crash are dropped the same way. An ingester refusing connections (stopped or killed, its
 * partitions moving) is skipped: what it held unflushed is re-read from Kafka by its successor.
 * Any other failure fails the query, since a partial answer would silently miss logs.
 *
 * <p><b>Strong read consistency</b> ({@code kafka.read_consistency: strong}, the default): before
 * asking, the querier reads every partition's next offset ({@link ProducedOffsets}) and sends them
 * along; each ingester answers only once it consumed its owned partitions up to them (waiting at
 * most half the query timeout, else the query fails with 503), so every line whose push was
 * answered 204 before the query began is seen. Not covered: a partition between two owners at that
 * moment (revoked from a stopping or dead ingester, not yet assigned to its successor), whose
 * unflushed lines are missing until the successor has re-read them.
 *
 * <p>Thread-safe (Java's HTTP client is).
 */
public final class RemoteUnflushedSource implements UnflushedSource {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteUnflushedSource.class);
    /** The internal route the ingesters serve. */
    public static final String PATH = "/internal/unflushed";

    private final Supplier<List<Announcement>> ingesters;
    private final HttpClient http;
    private final Duration timeout;
    /** Null for eventual consistency. */
    private final ProducedOffsets produced;

    /**
     * Asks the members {@code ingesters} lists (looked up per query), each within {@code timeout};
     * with {@code produced} non-null, strongly consistent (see the class comment).
     */
    public RemoteUnflushedSource(Supplier<List<Announcement>> ingesters, Duration timeout, ProducedOffsets produced) {
        this.ingesters = Objects.requireNonNull(ingesters, "ingesters is null");
        this.timeout = Objects.requireNonNull(timeout, "timeout is null");
        this.produced = produced;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    @Override
    public List<Stream> unflushed(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        Map<Integer, Long> offsets;
        try {
            offsets = produced == null ? Map.of() : produced.latest(timeout.dividedBy(2));
        } catch (KafkaUnavailableException e) {
            throw new UncheckedIOException(e);
        }
        byte[] body = new UnflushedRequest(tenant, fromNanos, throughNanos, matchers, offsets,
                timeout.dividedBy(2).toMillis()).toJson();
        List<Announcement> members = ingesters.get();
        List<CompletableFuture<List<PushRecord>>> answers = new ArrayList<>(members.size());
        for (Announcement member : members) {
            answers.add(ask(member, body));
        }
        Map<Labels, List<LogEntry>> merged = new TreeMap<>();
        for (int i = 0; i < answers.size(); i++) {
            List<PushRecord> records;
            try {
                records = answers.get(i).join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof NotCaughtUpException behind) {
                    throw behind;
                }
                throw new UncheckedIOException(new IOException("cannot read unflushed data of ingester "
                        + members.get(i).id() + " at " + members.get(i).address() + ": " + e.getCause(), e.getCause()));
            }
            for (PushRecord r : records) {
                merged.computeIfAbsent(r.labels(), k -> new ArrayList<>()).addAll(r.entries());
            }
        }
        List<Stream> out = new ArrayList<>(merged.size());
        for (Map.Entry<Labels, List<LogEntry>> e : merged.entrySet()) {
            List<LogEntry> entries = e.getValue();
            entries.sort(Comparator.comparingLong(LogEntry::timestampNanos));
            out.add(new Stream(e.getKey(), entries));
        }
        return out;
    }

    private CompletableFuture<List<PushRecord>> ask(Announcement member, byte[] body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + member.address() + PATH))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).handle((response, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                if (cause instanceof ConnectException) {
                    LOG.info("ingester {} at {} refuses connections; its partitions are moving: {}", member.id(),
                            member.address(), cause.toString());
                    return List.of();
                }
                throw new CompletionException(cause);
            }
            if (response.statusCode() == 503) {
                throw new CompletionException(new NotCaughtUpException("ingester " + member.id() + ": "
                        + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8).strip()));
            }
            if (response.statusCode() != 200) {
                throw new CompletionException(new IOException("status " + response.statusCode() + ": "
                        + new String(response.body(), java.nio.charset.StandardCharsets.UTF_8).strip()));
            }
            return UnflushedEndpoint.frames(response.body());
        });
    }

    /** Asks the ingesters first, then reads the index (see the class comment). */
    @Override
    public Snapshot snapshot(IndexReader index, String tenant, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        List<Stream> unflushed = unflushed(tenant, matchers, fromNanos, throughNanos);
        List<SeriesChunks> indexed = index.chunks(tenant, matchers, fromNanos, throughNanos);
        return new Snapshot(indexed, unflushed);
    }
}
