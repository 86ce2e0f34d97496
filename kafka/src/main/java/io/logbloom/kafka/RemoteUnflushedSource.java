package io.logbloom.kafka;

import io.logbloom.chunks.Labels;
import io.logbloom.chunks.LogEntry;
import io.logbloom.index.IndexListingCachingStore;
import io.logbloom.index.IndexReader;
import io.logbloom.index.LabelMatcher;
import io.logbloom.index.SeriesChunks;
import io.logbloom.querier.UnflushedSource;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The querier role's unflushed data: asks every ingester announced on the members topic for its
 * unflushed rows over {@code POST /internal/unflushed}, in parallel, and merges the answers per stream.
 *
 * <p><b>Consistency.</b> {@link #snapshot} asks the ingesters first and reads the bucket's index
 * after, so a row an ingester uploads in between is seen twice rather than not at all; the querier
 * drops identical entries of a stream while merging. Rows re-read by a partition's new owner after
 * a crash, or returned twice by an ingester asked again (below), are dropped the same way. An
 * ingester refusing connections (stopped or killed, its partitions moving) contributes nothing. With
 * eventual consistency any other failure fails the query, since a partial answer would silently miss
 * logs; with strong consistency the coverage rule below notices what is missing, so a failed ingester
 * just counts for no partition (an ingester answering 503, behind, fails the query in both). An
 * ingester still starting ({@link IngesterStartingException}: not consuming yet) is such a failure: its
 * partitions stay uncovered and are asked again below, within the same budget, like a successor's.
 *
 * <p><b>Strong read consistency</b> ({@code kafka.read_consistency: strong}, the default). Every line
 * acknowledged before the query began lies below its partition's produced offset, read first
 * ({@link PartitionOffsets#produced}). A row below that offset is either in the bucket or held, not
 * yet uploaded, by whoever consumed it since the last commit; so each partition P with a produced
 * offset above zero must be <em>covered</em>, in one of two ways:
 * <ol>
 *   <li>an asked ingester answers that it owns P and consumed it up to the produced offset
 *       ({@link UnflushedEndpoint#PARTITIONS_HEADER}): it started at the group's commit, so everything
 *       from there on is in its answer or, uploaded meanwhile, in the index read after it. The ingester's
 *       own answer decides, not its announcement: an ex-owner whose announcement still lists P answers
 *       without P and is not counted;</li>
 *   <li>the consumer group's committed offset of P ({@link PartitionOffsets#committed}) is at least the
 *       produced offset: ingesters commit only after uploading, so all of it is in the bucket.</li>
 * </ol>
 * Each ingester waits for its owned partitions (the remaining budget, at most half the query timeout)
 * and answers 503 when still behind, which fails the query. The common case (every partition owned by
 * a live ingester) costs what it always did: the produced offsets and one request per ingester. Only
 * when partitions stay uncovered (their owner just died or left, the group is rebalancing, the
 * announcement is stale) does the querier read the committed offsets and then, every
 * {@link #RETRY_INTERVAL}, re-read the announcements and ask the ingesters that now list an uncovered
 * partition (for those partitions only), until all are covered or half the query timeout has passed:
 * then the query fails with {@link NotCaughtUpException} (503) naming the partitions not covered. A
 * strong read thus never answers 200 with acknowledged lines missing. With eventual consistency
 * ({@code produced} null) the ingesters answer at once and nothing is checked.
 *
 * <p><b>Kept index listings.</b> A querier keeping its listings of index files ({@code querier.index_listing_ttl},
 * an {@link IndexListingCachingStore}) asks every ingester, with the rows, which index files of the tenant it wrote
 * lately (since the oldest moment a kept listing may come from, less a minute for clocks apart) and which consumer
 * answers ({@link PartitionConsumer#incarnation}: it changes with every rebalance of the group). Those files are
 * shown in the listings before the index is read, so a file an ingester uploaded after a listing was kept is still
 * read, and its rows, gone from the ingester's answer, are not missed. That vouches for every new file only when
 * every asked ingester answered with both, every partition was answered for by its owner (not by committed offsets:
 * an owner that died may have uploaded meanwhile) and the same consumers answered as in the previous query (any
 * join, leave or move of partitions changes some incarnation, and a member that came and went between two queries
 * moved partitions of those that answered); otherwise the kept listings are all dropped before the index is read.
 *
 * <p>Thread-safe (Java's HTTP client and the offset reader are; each call keeps its own state).
 */
public final class RemoteUnflushedSource implements UnflushedSource {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteUnflushedSource.class);
    /** The internal route the ingesters serve. */
    public static final String PATH = "/internal/unflushed";
    /**
     * Pause before re-reading announcements for uncovered partitions: an ingester announces at once when
     * it is assigned partitions, and the directory sees that within a poll, so a successor shows up in a
     * few of these; shorter would only add requests while the group rebalances.
     */
    static final Duration RETRY_INTERVAL = Duration.ofMillis(200);

    /** Clocks of ingesters and queriers may be apart by up to this much: index files are asked for from that earlier. */
    public static final Duration CLOCK_MARGIN = Duration.ofMinutes(1);

    /** Key of a failed committed-offsets read among the failures a 503 names. */
    private static final String COMMITTED_OFFSETS = "committed offsets";

    private final Supplier<List<Announcement>> ingesters;
    private final Duration timeout;
    /** Null for eventual consistency. */
    private final PartitionOffsets offsets;
    private final UnflushedClient client;
    private final KafkaMetrics metrics;
    /** Null when listings are not kept. */
    private final IndexListingCachingStore listings;
    private final InstantSource clock;
    /** The consumers that answered the last query, when it vouched for every new index file; else null. */
    private final AtomicReference<Set<String>> lastAnswered = new AtomicReference<>();

    /**
     * Asks the members {@code ingesters} lists (looked up per query), each within {@code timeout}, over
     * HTTP; with {@code offsets} non-null, strongly consistent (see the class comment).
     */
    public RemoteUnflushedSource(Supplier<List<Announcement>> ingesters, Duration timeout, PartitionOffsets offsets,
            KafkaMetrics metrics) {
        this(ingesters, timeout, offsets, new HttpUnflushedClient(timeout), metrics, null, Clock.systemUTC());
    }

    /**
     * As the other public constructor, telling {@code listings} (the store's kept index listings) of the ingesters'
     * new index files, or dropping them (see the class comment); {@code clock} says when "lately" starts.
     */
    public RemoteUnflushedSource(Supplier<List<Announcement>> ingesters, Duration timeout, PartitionOffsets offsets,
            KafkaMetrics metrics, IndexListingCachingStore listings, InstantSource clock) {
        this(ingesters, timeout, offsets, new HttpUnflushedClient(timeout), metrics,
                Objects.requireNonNull(listings, "listings is null"), clock);
    }

    /** As the public constructors, asking through {@code client}; {@code listings} may be null. */
    RemoteUnflushedSource(Supplier<List<Announcement>> ingesters, Duration timeout, PartitionOffsets offsets,
            UnflushedClient client, KafkaMetrics metrics, IndexListingCachingStore listings, InstantSource clock) {
        this.ingesters = Objects.requireNonNull(ingesters, "ingesters is null");
        this.timeout = Objects.requireNonNull(timeout, "timeout is null");
        this.offsets = offsets;
        this.client = Objects.requireNonNull(client, "client is null");
        this.metrics = Objects.requireNonNull(metrics, "metrics is null");
        this.listings = listings;
        this.clock = Objects.requireNonNull(clock, "clock is null");
    }

    /** As the public constructor, asking through {@code client}, keeping no listings. */
    RemoteUnflushedSource(Supplier<List<Announcement>> ingesters, Duration timeout, PartitionOffsets offsets,
            UnflushedClient client, KafkaMetrics metrics) {
        this(ingesters, timeout, offsets, client, metrics, null, Clock.systemUTC());
    }

    /**
     * What one query heard that decides whether the kept index listings may be used: the consumers that answered,
     * the index files they named, and whether it vouches for every new file. Not thread-safe: one query.
     */
    private static final class Heard {
        final Set<String> answered = new TreeSet<>();
        final Set<String> indexFiles = new TreeSet<>();
        /** The first reason it cannot vouch for every new file (a label of the dropped-listings metric), or null. */
        String doubt;

        void doubt(String reason) {
            if (doubt == null) {
                doubt = reason;
            }
        }
    }

    /** The index files asked for: since the oldest moment a kept listing may come from, less {@link #CLOCK_MARGIN}. */
    private UnflushedRequest asked(UnflushedRequest request) {
        return listings == null ? request
                : request.withIndexFilesSince(clock.millis() - listings.ttl().toMillis() - CLOCK_MARGIN.toMillis());
    }

    /**
     * Before the index is read: shows the named index files in the listings when what was heard vouches for every
     * new file and the same consumers answered as in the previous query, else drops every kept listing.
     */
    private void settle(Heard heard) {
        if (listings == null) {
            return;
        }
        if (heard.answered.isEmpty()) {
            heard.doubt("no_ingesters");
        }
        Set<String> answered = heard.doubt == null ? Set.copyOf(heard.answered) : null;
        Set<String> before = lastAnswered.getAndSet(answered);
        if (answered == null || !answered.equals(before)) {
            heard.doubt("consumers_changed");
            LOG.debug("index listings dropped ({}): answered by {}, before by {}", heard.doubt, heard.answered, before);
            metrics.listingsDropped(heard.doubt);
            listings.forgetAll();
        }
        if (answered != null) {
            listings.reported(heard.indexFiles);
        }
    }

    @Override
    public List<Stream> unflushed(String tenant, List<LabelMatcher> matchers, long fromNanos, long throughNanos) {
        long deadline = System.nanoTime() + timeout.toNanos() / 2;
        Map<Labels, List<LogEntry>> merged = new TreeMap<>();
        Heard heard = new Heard();
        if (offsets == null) {
            ask(ingesters.get(), asked(new UnflushedRequest(tenant, fromNanos, throughNanos, matchers)), merged, null,
                    heard);
            settle(heard);
            return streams(merged);
        }
        try {
            Map<Integer, Long> targets = new TreeMap<>();
            offsets.produced(left(deadline)).forEach((partition, next) -> {
                if (next > 0) {
                    targets.put(partition, next);
                }
            });
            PartitionCoverage coverage = new PartitionCoverage(targets);
            Map<String, String> failures = new TreeMap<>();
            coverage.claimed(ask(ingesters.get(),
                    asked(request(tenant, matchers, fromNanos, throughNanos, targets, deadline)), merged, failures,
                    heard));
            if (readCommitted(coverage, deadline, failures)) {
                heard.doubt("committed_offsets");
            }
            boolean waited = !coverage.complete();
            while (!coverage.complete()) {
                long leftNanos = deadline - System.nanoTime();
                if (leftNanos <= 0) {
                    metrics.strongReadWaited(false);
                    throw new NotCaughtUpException(coverage.describeUncovered(timeout.dividedBy(2), failures));
                }
                Thread.sleep(Math.max(1, Math.min(RETRY_INTERVAL.toMillis(), leftNanos / 1_000_000)));
                Map<Integer, Long> missing = coverage.uncovered();
                List<Announcement> owners = new ArrayList<>();
                for (Announcement a : ingesters.get()) {
                    if (a.partitions().stream().anyMatch(missing::containsKey)) {
                        owners.add(a);
                    }
                }
                LOG.debug("strong read: partitions {} not covered yet; asking {}", missing.keySet(), owners);
                coverage.claimed(ask(owners,
                        asked(request(tenant, matchers, fromNanos, throughNanos, missing, deadline)), merged, failures,
                        heard));
                if (readCommitted(coverage, deadline, failures)) {
                    heard.doubt("committed_offsets");
                }
            }
            if (waited) {
                metrics.strongReadWaited(true);
            }
            settle(heard);
        } catch (KafkaUnavailableException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new InterruptedIOException("interrupted while reading unflushed data"));
        }
        return streams(merged);
    }

    /**
     * Covers the partitions whose committed offset reaches the target, when some are uncovered; a failed
     * read is noted in {@code failures} (the next round reads again, the 503 names it). Returns whether it read
     * the committed offsets (some partition was not answered for by its owner).
     */
    private boolean readCommitted(PartitionCoverage coverage, long deadline, Map<String, String> failures) {
        if (coverage.complete()) {
            return false;
        }
        try {
            coverage.committed(offsets.committed(left(deadline)));
            failures.remove(COMMITTED_OFFSETS);
        } catch (KafkaUnavailableException e) {
            failures.put(COMMITTED_OFFSETS, e.getMessage());
        }
        return true;
    }

    private static Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
    }

    private static UnflushedRequest request(String tenant, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos, Map<Integer, Long> targets, long deadline) {
        return new UnflushedRequest(tenant, fromNanos, throughNanos, matchers, targets, left(deadline).toMillis());
    }

    /**
     * Asks {@code members} in parallel, adds their rows to {@code merged} and returns the partitions they
     * answered for. A member answering 503 (behind) fails the query. A member refusing connections is
     * skipped. Any other failure fails the query when {@code failures} is null (eventual consistency:
     * nothing else would notice the missing rows); otherwise it is noted there and the member counts for
     * no partition, so the coverage rule decides (its partitions are asked again, else named in the 503).
     */
    private Set<Integer> ask(List<Announcement> members, UnflushedRequest request, Map<Labels, List<LogEntry>> merged,
            Map<String, String> failures, Heard heard) {
        List<CompletableFuture<UnflushedClient.Reply>> replies = new ArrayList<>(members.size());
        for (Announcement member : members) {
            replies.add(client.ask(member, request));
        }
        Set<Integer> caughtUp = new TreeSet<>();
        for (int i = 0; i < replies.size(); i++) {
            UnflushedClient.Reply reply;
            Announcement member = members.get(i);
            try {
                reply = replies.get(i).join();
            } catch (CompletionException e) {
                Throwable cause = unwrap(e);
                if (cause instanceof NotCaughtUpException behind) {
                    throw behind;
                }
                heard.doubt("unanswered");
                if (cause instanceof ConnectException || cause instanceof HttpConnectTimeoutException) {
                    LOG.info("ingester {} at {} is unreachable; its partitions are moving: {}", member.id(),
                            member.address(), cause.toString());
                    continue;
                }
                String what = "cannot read unflushed data of ingester " + member.id() + " at " + member.address()
                        + ": " + cause;
                if (failures == null) {
                    throw new UncheckedIOException(new IOException(what, cause));
                }
                LOG.warn("{}; counting it for no partition", what);
                failures.put(member.id(), cause.toString());
                continue;
            }
            if (failures != null) {
                failures.remove(member.id());
            }
            for (PushRecord r : reply.records()) {
                merged.computeIfAbsent(r.labels(), k -> new ArrayList<>()).addAll(r.entries());
            }
            caughtUp.addAll(reply.caughtUp());
            if (reply.incarnation() == null || reply.indexFiles() == null) {
                heard.doubt("files_unknown"); // an ingester of an earlier version, or one that cannot say
            } else {
                heard.answered.add(member.id() + "@" + reply.incarnation());
                heard.indexFiles.addAll(reply.indexFiles());
            }
        }
        return caughtUp;
    }

    private static Throwable unwrap(Throwable e) {
        Throwable current = e;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    private static List<Stream> streams(Map<Labels, List<LogEntry>> merged) {
        List<Stream> out = new ArrayList<>(merged.size());
        for (Map.Entry<Labels, List<LogEntry>> e : merged.entrySet()) {
            List<LogEntry> entries = e.getValue();
            entries.sort(Comparator.comparingLong(LogEntry::timestampNanos));
            out.add(new Stream(e.getKey(), entries));
        }
        return out;
    }

    /** Asks the ingesters first, then reads the index (see the class comment). */
    @Override
    public Snapshot snapshot(IndexReader index, String tenant, List<LabelMatcher> matchers, long fromNanos,
            long throughNanos) throws IOException {
        List<Stream> unflushed = unflushed(tenant, matchers, fromNanos, throughNanos);
        List<SeriesChunks> indexed = index.chunks(tenant, matchers, fromNanos, throughNanos);
        return new Snapshot(indexed, unflushed);
    }

    /** Which partitions of a strong read are covered yet (see the class comment). Not thread-safe: one query. */
    private static final class PartitionCoverage {
        private final Map<Integer, Long> uncovered;
        private Map<Integer, Long> lastCommitted = Map.of();

        PartitionCoverage(Map<Integer, Long> targets) {
            this.uncovered = new TreeMap<>(targets);
        }

        /** Partitions an ingester answered that it owns and consumed up to the target. */
        void claimed(Set<Integer> partitions) {
            uncovered.keySet().removeAll(partitions);
        }

        /** Partitions whose committed offset reaches the target: all in the bucket. */
        void committed(Map<Integer, Long> committed) {
            lastCommitted = new HashMap<>(committed);
            uncovered.entrySet().removeIf(e -> committed.getOrDefault(e.getKey(), -1L) >= e.getValue());
        }

        boolean complete() {
            return uncovered.isEmpty();
        }

        /** Uncovered partitions with their target offsets. */
        Map<Integer, Long> uncovered() {
            return new TreeMap<>(uncovered);
        }

        String describeUncovered(Duration waited, Map<String, String> failures) {
            Map<Integer, String> committed = new TreeMap<>();
            for (Integer p : uncovered.keySet()) {
                Long c = lastCommitted.get(p);
                committed.put(p, c == null ? "none" : c.toString());
            }
            return "strong read consistency: partitions " + uncovered.keySet() + " are not covered after "
                    + waited.toMillis() + " ms: no live ingester answered that it owns them and consumed them up to "
                    + "the query's offsets " + uncovered + ", and the ingesters' committed offsets " + committed
                    + " are behind (their owner just left or died, or the group is rebalancing; "
                    + "a successor re-reads them within kafka.session_timeout)"
                    + (failures.isEmpty() ? "" : "; failed to answer: " + failures)
                    + "; retry, or set kafka.read_consistency: eventual";
        }
    }
}
