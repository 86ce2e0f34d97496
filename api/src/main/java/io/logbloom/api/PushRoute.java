package io.logbloom.api;

import io.javalin.http.Context;
import io.logbloom.ingest.PushBackpressureException;
import io.logbloom.ingest.PushDecodeException;
import io.logbloom.ingest.PushDecoder;
import io.logbloom.ingest.PushEnricher;
import io.logbloom.ingest.PushListener;
import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code POST /loki/api/v1/push}: tenant from the header, body read within the size bound and
 * gunzipped when {@code Content-Encoding: gzip}, decoded (snappy-protobuf or JSON), enriched (service
 * name, detected level), handed to the push target (the ingester, or Kafka on a distributor), and answered like Loki's distributor: 204 when every
 * entry was accepted (the push is then in the WAL), 429 with Loki's rate-limit message when the tenant
 * is over its ingestion rate, 429 with {@code Retry-After} when the ingester is over its memory budget,
 * 503 when it cannot persist, 400 with the joined per-stream messages when some entries were rejected
 * (the others are kept). A push accepted in full is then passed to the listener (pattern mining); one
 * with rejections is not, since the ingester does not say which entries it kept. {@link #ingest} is
 * shared with the OTLP route. Thread-safe (stateless apart from its immutable collaborators).
 */
final class PushRoute {
    private final TenantResolver tenants;
    private final RequestBodies bodies;
    private final PushDecoder decoder;
    private final Supplier<PushTarget> target;
    private final PushEnricher enricher;
    private final PushListener listener;

    PushRoute(TenantResolver tenants, RequestBodies bodies, PushDecoder decoder, Supplier<PushTarget> target,
            PushEnricher enricher, PushListener listener) {
        this.tenants = Objects.requireNonNull(tenants, "tenants is null");
        this.bodies = Objects.requireNonNull(bodies, "bodies is null");
        this.decoder = Objects.requireNonNull(decoder, "decoder is null");
        this.target = Objects.requireNonNull(target, "target is null");
        this.enricher = Objects.requireNonNull(enricher, "enricher is null");
        this.listener = Objects.requireNonNull(listener, "listener is null");
    }

    void handle(Context ctx) throws IOException, PushDecodeException {
        try {
            push(ctx.header(TenantResolver.HEADER), ctx.header("Content-Encoding"), ctx.header("Content-Type"),
                    ctx.contentLength(), ctx.bodyInputStream());
        } catch (PushBackpressureException e) {
            retryAfter(ctx, e);
        }
        ctx.status(204);
    }

    /** Sets {@code Retry-After} for a push refused over a budget and rethrows the refusal. */
    static void retryAfter(Context ctx, PushBackpressureException e) throws PushBackpressureException {
        ctx.header("Retry-After", Long.toString(e.retryAfterSeconds()));
        throw e;
    }

    /**
     * The route without its HTTP framing: returns when every entry was accepted (the caller answers 204),
     * throws what {@link HttpErrors} turns into the error answer otherwise.
     */
    void push(String tenantHeader, String contentEncoding, String contentType, long contentLength, InputStream body)
            throws IOException, PushDecodeException {
        String tenant = tenants.tenant(tenantHeader);
        PushTarget into = target.get();
        byte[] bytes = bodies.read(body, contentEncoding, contentLength);
        ingest(into, tenant, decoder.decode(bytes, contentType));
    }

    /**
     * Enriches and stores decoded streams; throws the 429/400 {@link HttpException} for a refused or
     * partial push, and {@link PushBackpressureException} over one of the ingester's budgets (the
     * caller sets {@code Retry-After}, see {@link #retryAfter}).
     */
    void ingest(PushTarget target, String tenant, List<PushStream> decoded) throws IOException {
        List<PushStream> streams = enricher.enrich(decoded);
        PushResult result = target.push(tenant, streams);
        if (result.rateLimited()) {
            throw new HttpException(429, "rate_limited", result.errorMessage());
        }
        if (!result.errors().isEmpty()) {
            throw new HttpException(400, "rejected_entries", result.errorMessage());
        }
        listener.accepted(tenant, streams);
    }
}
