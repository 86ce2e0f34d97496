package io.logbloom.api;

import io.javalin.http.Context;
import io.logbloom.ingest.PushBackpressureException;
import io.logbloom.ingest.OtlpDecoder;
import io.logbloom.ingest.OtlpMapper;
import io.logbloom.ingest.PushDecodeException;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code POST /otlp/v1/logs}: OTLP/HTTP logs (binary protobuf or JSON, optionally gzip) mapped onto push
 * streams as Loki maps them ({@link OtlpMapper}, per the {@code otlp_config} limit), then stored through
 * the push path ({@link PushRoute#ingest}: enrichment, limits, WAL, pattern mining). Success is OTLP's
 * 200 with an empty {@code ExportLogsServiceResponse} in the request's encoding; a bad body is 400, a
 * tenant over its rate 429, rejected entries 400 with Loki's messages. Thread-safe.
 */
final class OtlpRoute {
    private final TenantResolver tenants;
    private final RequestBodies bodies;
    private final Supplier<PushTarget> target;
    private final PushRoute push;
    private final OtlpMapper mapper;
    private final Clock clock;
    private final OtlpDecoder decoder = new OtlpDecoder();

    OtlpRoute(TenantResolver tenants, RequestBodies bodies, Supplier<PushTarget> target, PushRoute push,
            OtlpMapper mapper, Clock clock) {
        this.tenants = Objects.requireNonNull(tenants, "tenants is null");
        this.bodies = Objects.requireNonNull(bodies, "bodies is null");
        this.target = Objects.requireNonNull(target, "target is null");
        this.push = Objects.requireNonNull(push, "push is null");
        this.mapper = Objects.requireNonNull(mapper, "mapper is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
    }

    void handle(Context ctx) throws IOException, PushDecodeException {
        String tenant = tenants.tenant(ctx.header(TenantResolver.HEADER));
        PushTarget into = target.get();
        byte[] body = bodies.read(ctx.bodyInputStream(), ctx.header("Content-Encoding"), ctx.contentLength());
        String contentType = ctx.header("Content-Type");
        ExportLogsServiceRequest request = decoder.decode(body, contentType);
        long now = clock.millis() * 1_000_000L;
        try {
            push.ingest(into, tenant, mapper.streams(request, now));
        } catch (PushBackpressureException e) {
            PushRoute.retryAfter(ctx, e);
        }
        if (contentType != null && contentType.toLowerCase(Locale.ROOT).contains("json")) {
            ctx.status(200).contentType("application/json").result("{}");
        } else {
            ctx.status(200).contentType("application/x-protobuf")
                    .result(ExportLogsServiceResponse.getDefaultInstance().toByteArray());
        }
    }
}
