package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.logql.LogQueryResult;
import io.logbloom.logql.ResultEntry;
import io.logbloom.logql.ResultStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A push racing a tail's connect is in both the history and the live feed; it must be sent once. */
final class TailHistoryTest {
    private static ResultStream stream(String app, ResultEntry... entries) {
        return new ResultStream(Map.of("app", app), Map.of("app", app), List.of(entries));
    }

    private static ResultEntry entry(long ts, String line) {
        return new ResultEntry(ts, line, Map.of(), Map.of());
    }

    private static List<String> lines(LogQueryResult r) {
        return r.streams().stream().flatMap(s -> s.entries().stream()).map(ResultEntry::line).toList();
    }

    @Test
    void liveEntriesAlreadySentAsHistory_areDropped() {
        TailHistory history = TailHistory.of(new LogQueryResult(List.of(stream("a", entry(10, "keep one")))), 20);
        LogQueryResult live = new LogQueryResult(List.of(
                stream("a", entry(10, "keep one"), entry(11, "keep two")),
                stream("b", entry(10, "keep one"))));
        assertThat(lines(history.withoutSent(live))).containsExactly("keep two", "keep one");
        assertThat(history.withoutSent(live).streams()).extracting(s -> s.labels().get("app")).containsExactly("a", "b");
    }

    @Test
    void entriesAtOrAfterTheHistoryEnd_areKeptEvenIfIdentical() {
        TailHistory history = TailHistory.of(new LogQueryResult(List.of(stream("a", entry(25, "same")))), 20);
        LogQueryResult live = new LogQueryResult(List.of(stream("a", entry(25, "same"))));
        assertThat(lines(history.withoutSent(live))).containsExactly("same");
    }

    @Test
    void noHistory_keepsEverything() {
        LogQueryResult live = new LogQueryResult(List.of(stream("a", entry(1, "x"), entry(1, "x"))));
        assertThat(lines(TailHistory.NONE.withoutSent(live))).containsExactly("x", "x");
    }
}
