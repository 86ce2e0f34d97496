package io.logbloom.querier;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a query holds (its snapshot's local parts) is handed back when it closes, once, even if taken too late. */
final class QueryContextTest {
    @Test
    void onClose_runsEachActionOnceAtClose_andAtOnceWhenRegisteredAfterIt() {
        List<String> ran = new ArrayList<>();
        QueryContext ctx = new QueryContext("t", true, Clock.systemUTC(), Duration.ofSeconds(5));
        ctx.onClose(() -> ran.add("parts of the first snapshot"));
        ctx.onClose(() -> ran.add("parts of the second snapshot"));
        assertThat(ran).isEmpty();

        ctx.close();
        assertThat(ran).containsExactly("parts of the first snapshot", "parts of the second snapshot");
        ctx.close();
        assertThat(ran).hasSize(2);

        // a snapshot a pool thread finished after the query stopped waiting for it
        ctx.onClose(() -> ran.add("late snapshot"));
        assertThat(ran).endsWith("late snapshot");
    }
}
