package io.logbloom.api;

import io.javalin.http.Context;
import io.logbloom.ingest.Ingester;
import io.logbloom.ingest.PushDecodeException;
import io.logbloom.ingest.PushDecoder;
import io.logbloom.ingest.PushResult;
import io.logbloom.ingest.PushStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code POST /loki/api/v1/push}: tenant from the header, body read within the size bound and
 * gunzipped when {@code Content-Encoding: gzip}, decoded (snappy-protobuf or JSON), handed to the
 * ingester, and answered like Loki's distributor: 204 when every entry was accepted (the push is then
 * in the WAL), 429 with Loki's rate-limit message when the tenant is over its ingestion rate, 400
 * with the joined per-stream messages when some entries were rejected (the others are kept).
 * Thread-safe (stateless apart from its immutable collaborators).
 */
final class PushRoute {
    private final TenantResolver tenants;
    private final RequestBodies bodies;
    private final PushDecoder decoder;
    private final Supplier<Ingester> ingester;

    PushRoute(TenantResolver tenants, RequestBodies bodies, PushDecoder decoder, Supplier<Ingester> ingester) {
        this.tenants = Objects.requireNonNull(tenants, "tenants is null");
        this.bodies = Objects.requireNonNull(bodies, "bodies is null");
        this.decoder = Objects.requireNonNull(decoder, "decoder is null");
        this.ingester = Objects.requireNonNull(ingester, "ingester is null");
    }

    void handle(Context ctx) throws IOException, PushDecodeException {
        push(ctx.header(TenantResolver.HEADER), ctx.header("Content-Encoding"), ctx.header("Content-Type"),
                ctx.contentLength(), ctx.bodyInputStream());
        ctx.status(204);
    }

    /**
     * The route without its HTTP framing: returns when every entry was accepted (the caller answers 204),
     * throws what {@link HttpErrors} turns into the error answer otherwise.
     */
    void push(String tenantHeader, String contentEncoding, String contentType, long contentLength, InputStream body)
            throws IOException, PushDecodeException {
        String tenant = tenants.tenant(tenantHeader);
        Ingester target = ingester.get();
        byte[] bytes = bodies.read(body, contentEncoding, contentLength);
        List<PushStream> streams = decoder.decode(bytes, contentType);
        PushResult result = target.push(tenant, streams);
        if (result.rateLimited()) {
            throw new HttpException(429, "rate_limited", result.errorMessage());
        }
        if (!result.errors().isEmpty()) {
            throw new HttpException(400, "rejected_entries", result.errorMessage());
        }
    }
}
