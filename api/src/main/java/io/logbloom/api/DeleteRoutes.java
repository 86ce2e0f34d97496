package io.logbloom.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.logbloom.compactor.DeleteRequest;
import io.logbloom.compactor.DeleteRequestStore;
import io.logbloom.compactor.TenantLimits;
import io.logbloom.logql.LogSelection;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loki's log deletion API ({@code pkg/compactor/deletion}): {@code POST /loki/api/v1/delete} adds a
 * request ({@code query}, {@code start}, optional {@code end}; 204), {@code GET} lists the tenant's
 * requests with their status, {@code DELETE ?request_id=} cancels a request still {@code received}
 * (204) within {@code delete_request_cancel_period} of its creation, or later with {@code force=true}
 * (Loki 2.9's rule: after the period the compactor may already be removing its lines). Parameters, messages and status codes follow Loki's handlers: 400 for a bad parameter, 404 for
 * an unknown id, 403 when the tenant's {@code deletion_mode} is {@code disabled}. {@code max_interval}
 * (Loki's sharding of a request into intervals) is accepted and ignored: requests are applied whole.
 * Thread-safe.
 */
final class DeleteRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(DeleteRoutes.class);
    static final String PATH = "/loki/api/v1/delete";

    private final TenantResolver tenants;
    private final DeleteRequestStore store;
    private final TenantLimits limits;
    private final Duration cancelPeriod;
    private final Clock clock;
    private final ObjectMapper json = new ObjectMapper().enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

    DeleteRoutes(TenantResolver tenants, DeleteRequestStore store, TenantLimits limits, Duration cancelPeriod,
            Clock clock) {
        this.tenants = Objects.requireNonNull(tenants, "tenants is null");
        this.store = Objects.requireNonNull(store, "store is null");
        this.limits = Objects.requireNonNull(limits, "limits is null");
        this.cancelPeriod = Objects.requireNonNull(cancelPeriod, "cancelPeriod is null");
        this.clock = Objects.requireNonNull(clock, "clock is null");
    }

    void register(Javalin app) {
        app.post(PATH, this::add);
        app.get(PATH, this::list);
        app.delete(PATH, this::cancel);
    }

    private String tenant(Context ctx) {
        String tenant = tenants.tenant(ctx.header(TenantResolver.HEADER));
        if (!limits.forTenant(tenant).deletionMode().deleteEnabled()) {
            throw new HttpException(403, "deletion_disabled", "deletion is not available for this tenant");
        }
        return tenant;
    }

    private static String param(Context ctx, String name) {
        String v = QueryRoutes.params(ctx).apply(name);
        return v == null ? "" : v;
    }

    private void add(Context ctx) throws IOException {
        String tenant = tenant(ctx);
        String query = param(ctx, "query");
        if (query.isEmpty()) {
            throw badRequest("query not set");
        }
        try {
            LogSelection.parse(query);
        } catch (IllegalArgumentException e) {
            throw badRequest("invalid query expression: " + e.getMessage());
        }
        String startText = param(ctx, "start");
        if (startText.isEmpty()) {
            throw badRequest("start time not set");
        }
        long start = parseTime(startText).orElseThrow(() ->
                badRequest("invalid start time: require unix seconds or RFC3339 format"));
        long now = clock.millis();
        String endText = param(ctx, "end");
        long end = endText.isEmpty() ? now : parseTime(endText).orElseThrow(() ->
                badRequest("invalid end time: require unix seconds or RFC3339 format"));
        if (end > now) {
            throw badRequest("deletes in the future are not allowed");
        }
        if (start > end) {
            throw badRequest("start time can't be greater than end time");
        }
        DeleteRequest request = store.add(tenant, query, start, end);
        LOG.info("delete request for tenant {} added: id {}, query {}, [{}, {}] ms", tenant, request.requestId(), query,
                start, end);
        ctx.status(204);
    }

    private void list(Context ctx) throws IOException {
        String tenant = tenant(ctx);
        ArrayNode out = json.createArrayNode();
        for (DeleteRequest r : store.list(tenant)) {
            out.addObject()
                    .put("request_id", r.requestId())
                    .put("start_time", seconds(r.startMillis()))
                    .put("end_time", seconds(r.endMillis()))
                    .put("query", r.query())
                    .put("status", r.status())
                    .put("created_at", seconds(r.createdAtMillis()));
        }
        ctx.contentType("application/json").result(json.writeValueAsBytes(out));
    }

    private void cancel(Context ctx) throws IOException {
        String tenant = tenant(ctx);
        Optional<DeleteRequest> request = store.get(tenant, param(ctx, "request_id"));
        if (request.isEmpty()) {
            throw new HttpException(404, "not_found", "could not find delete request with given id");
        }
        if (!request.get().received()) {
            throw badRequest("deletion of request which is in process or already processed is not allowed");
        }
        boolean pastDeadline = request.get().createdAtMillis() + cancelPeriod.toMillis() < clock.millis();
        if (pastDeadline && !"true".equals(param(ctx, "force"))) {
            throw badRequest("Cancellation of partially completed delete request or delete request past the deadline of "
                    + goDuration(cancelPeriod) + " since its creation is not allowed. To force, use the ?force query "
                    + "parameter");
        }
        store.remove(request.get());
        LOG.info("delete request {} of tenant {} cancelled", request.get().requestId(), tenant);
        ctx.status(204);
    }

    /** A duration as Go's {@code time.Duration.String} writes it in Loki's messages: {@code 24h0m0s}, {@code 1m30s}, {@code 500ms}. */
    static String goDuration(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        long nanos = d.toNanos();
        if (nanos < 1_000_000_000L) {
            return BigDecimal.valueOf(nanos, 6).stripTrailingZeros().toPlainString() + "ms";
        }
        long hours = d.toHours();
        long minutes = d.toMinutesPart();
        String seconds = BigDecimal.valueOf(nanos % 60_000_000_000L, 9).stripTrailingZeros().toPlainString() + "s";
        if (hours > 0) {
            return hours + "h" + minutes + "m" + seconds;
        }
        return minutes > 0 ? minutes + "m" + seconds : seconds;
    }

    /** Milliseconds as Prometheus' model.Time marshals them: seconds with up to three decimals. */
    private static BigDecimal seconds(long millis) {
        BigDecimal s = BigDecimal.valueOf(millis, 3).stripTrailingZeros();
        return s.scale() < 0 ? s.setScale(0) : s;
    }

    /** Loki's delete-time parsing: RFC3339, or unix seconds written with exactly 10 digits; milliseconds. */
    static Optional<Long> parseTime(String text) {
        try {
            return Optional.of(OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant().toEpochMilli());
        } catch (DateTimeParseException notRfc3339) {
            if (text.length() != 10 || !text.chars().allMatch(Character::isDigit)) {
                return Optional.empty();
            }
            return Optional.of(Long.parseLong(text) * 1000);
        }
    }

    private static HttpException badRequest(String message) {
        return new HttpException(400, "bad_request", message);
    }
}
