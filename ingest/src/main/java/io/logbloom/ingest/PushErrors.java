package io.logbloom.ingest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Rejections of one push, with per-reason counts for the metric; confined to the pushing thread. */
final class PushErrors {
    /** Error messages kept per push: a 400 body naming thousands of entries helps nobody. */
    static final int MAX_ERRORS_PER_PUSH = 100;

    private final List<String> messages = new ArrayList<>();
    private final Map<RejectReason, Long> counts = new HashMap<>();
    private int rejected;
    private int dropped;
    private boolean rateLimited;

    void reject(Rejection r, int entries) {
        reject(r.reason(), r.message(), entries);
    }

    void reject(RejectReason reason, String message, int entries) {
        if (entries <= 0) {
            return;
        }
        rejected += entries;
        counts.merge(reason, (long) entries, Long::sum);
        if (messages.size() < MAX_ERRORS_PER_PUSH) {
            messages.add(message);
        } else {
            dropped++;
        }
    }

    void markRateLimited() {
        rateLimited = true;
    }

    boolean rateLimited() {
        return rateLimited;
    }

    PushResult result(int accepted, IngestMetrics metrics) {
        return result(accepted, (java.util.function.BiConsumer<RejectReason, Long>) metrics::rejected);
    }

    /** The push's answer; {@code rejectedCounter} gets the rejected entries per reason. */
    PushResult result(int accepted, java.util.function.BiConsumer<RejectReason, Long> rejectedCounter) {
        counts.forEach(rejectedCounter);
        List<String> out = new ArrayList<>(messages);
        if (dropped > 0) {
            out.add("... and " + dropped + " more errors");
        }
        return new PushResult(accepted, rejected, out, rateLimited);
    }
}
