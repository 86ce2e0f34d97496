package io.logbloom.api;

import io.logbloom.logql.LogQueryResult;
import io.logbloom.logql.ResultEntry;
import io.logbloom.logql.ResultStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The entries a tail session sent as history, so that live entries pushed while the history query ran (and so
 * seen by both) are sent once. Only live entries older than {@code through}, the history's end, can repeat.
 * At most the tail's {@code limit} keys are held. Immutable.
 */
record TailHistory(Set<String> keys, long throughNanos) {
    static final TailHistory NONE = new TailHistory(Set.of(), Long.MIN_VALUE);

    TailHistory {
        keys = Set.copyOf(keys);
    }

    /** The keys of every entry in {@code history}, which covered times before {@code throughNanos}. */
    static TailHistory of(LogQueryResult history, long throughNanos) {
        Set<String> keys = new HashSet<>();
        for (ResultStream stream : history.streams()) {
            for (ResultEntry e : stream.entries()) {
                keys.add(key(stream.labels(), e));
            }
        }
        return new TailHistory(keys, throughNanos);
    }

    /** {@code live} without the entries the history already sent. */
    LogQueryResult withoutSent(LogQueryResult live) {
        if (keys.isEmpty()) {
            return live;
        }
        List<ResultStream> kept = new ArrayList<>();
        for (ResultStream stream : live.streams()) {
            List<ResultEntry> entries = new ArrayList<>();
            for (ResultEntry e : stream.entries()) {
                if (e.timestampNanos() >= throughNanos || !keys.contains(key(stream.labels(), e))) {
                    entries.add(e);
                }
            }
            if (!entries.isEmpty()) {
                kept.add(new ResultStream(stream.labels(), stream.streamLabels(), entries));
            }
        }
        return new LogQueryResult(kept);
    }

    private static String key(Map<String, String> labels, ResultEntry e) {
        return labels + "\u0000" + e.timestampNanos() + "\u0000" + e.line();
    }
}
