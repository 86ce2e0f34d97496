package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

final class QueryParamsTest {
    private static final long NOW = 1_700_000_000_000_000_000L;

    private static Function<String, String> params(String... kv) {
        Map<String, String> m = new java.util.HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m::get;
    }

    @ParameterizedTest
    @CsvSource({
        "1700000000, 1700000000000000000",
        "1700000000000000000, 1700000000000000000",
        "1700000000.5, 1700000000500000000",
        "1700000000.1234, 1700000000123000000",
        "2023-11-14T22:13:20Z, 1700000000000000000",
        "2023-11-14T22:13:20.25+00:00, 1700000000250000000",
        "4, 4000000000",
        "-1.5, -1500000000",
    })
    void timestamp_lokiForms(String value, long nanos) {
        assertThat(QueryParams.timestamp("time", value, 0)).isEqualTo(nanos);
    }

    @Test
    void timestamp_bad_namesParameterAndValue() {
        assertThatThrownBy(() -> QueryParams.timestamp("start", "yesterday", 0))
                .isInstanceOf(HttpException.class)
                .hasMessage("invalid parameter \"start\": cannot parse \"yesterday\" to a valid timestamp");
        // Java would read 1.5d as 1.5 s; Go's ParseFloat, ParseInt and RFC3339 all refuse it, as Loki does
        assertThatThrownBy(() -> QueryParams.timestamp("start", "1700000000.5d", 0))
                .hasMessage("invalid parameter \"start\": cannot parse \"1700000000.5d\" to a valid timestamp");
    }

    @Test
    void defaults_limit100_backward_oneHourBack() {
        Function<String, String> none = params();
        assertThat(QueryParams.limit(none)).isEqualTo(100);
        assertThat(QueryParams.forward(none)).isFalse();
        QueryParams.Range r = QueryParams.range(none, NOW);
        assertThat(r.endNanos()).isEqualTo(NOW);
        assertThat(r.startNanos()).isEqualTo(NOW - 3_600_000_000_000L);
        assertThat(QueryParams.time(none, NOW)).isEqualTo(NOW);
        assertThat(QueryParams.step(none, r)).isEqualTo(14_000_000_000L);
    }

    @Test
    void since_setsStartRelativeToEnd() {
        QueryParams.Range r = QueryParams.range(params("since", "5m", "end", "1700000000"), NOW);
        assertThat(r.startNanos()).isEqualTo(1_700_000_000_000_000_000L - 300_000_000_000L);
    }

    @ParameterizedTest
    @CsvSource({"1000ms, 1000000000", "15, 15000000000", "0.5, 500000000", "1h30m, 5400000000000", "1w, 604800000000000",
        // Go's ParseFloat refuses 1d and 5f (Java's own reads them as 1 and 5 seconds): durations then
        "1d, 86400000000000", "0x1p4, 16000000000", "1_0, 10000000000"})
    void step_durationOrFloatSeconds(String step, long nanos) {
        assertThat(QueryParams.step(params("step", step), new QueryParams.Range(0, 1_000_000_000_000L)))
                .isEqualTo(nanos);
    }

    @Test
    void errors_useLokiTexts() {
        QueryParams.Range r = new QueryParams.Range(0, 100_000_000_000_000L);
        assertThatThrownBy(() -> QueryParams.limit(params("limit", "0"))).hasMessage("limit must be a positive value");
        assertThatThrownBy(() -> QueryParams.forward(params("direction", "up"))).hasMessage("invalid direction 'up'");
        assertThatThrownBy(() -> QueryParams.step(params("step", "-1"), r))
                .hasMessage("zero or negative query resolution step widths are not accepted. Try a positive integer");
        assertThatThrownBy(() -> QueryParams.step(params("step", "1ms"), r))
                .hasMessageStartingWith("exceeded maximum resolution of 11,000 points per timeseries.");
        assertThatThrownBy(() -> QueryParams.step(params("step", "1x"), r))
                .hasMessage("invalid parameter \"step\": cannot parse \"1x\" to a valid duration");
        assertThatThrownBy(() -> QueryParams.queryRange(params("start", "20", "end", "10"), NOW))
                .hasMessage("end timestamp must not be before or equal to start time");
        assertThatThrownBy(() -> QueryParams.duration("since", "5m1h")).isInstanceOf(HttpException.class);
    }

    @Test
    void overflowingDurationsAndRanges_400NotArithmeticFailure() {
        assertThatThrownBy(() -> QueryParams.range(params("since", "9223372036854775807y"), NOW))
                .isInstanceOf(HttpException.class).hasMessageContaining("overflows int64");
        assertThatThrownBy(() -> QueryParams.range(params("since", "99999999999999999999d"), NOW))
                .isInstanceOf(HttpException.class).hasMessageContaining("overflows int64");
        QueryParams.Range farBack = QueryParams.range(params("since", "106751d", "end", "-9223372036854775808"), NOW);
        assertThat(farBack.startNanos()).isEqualTo(Long.MIN_VALUE);
        QueryParams.Range widest = new QueryParams.Range(Long.MIN_VALUE, Long.MAX_VALUE);
        assertThatThrownBy(() -> QueryParams.step(params("step", "1"), widest))
                .hasMessageStartingWith("exceeded maximum resolution of 11,000 points per timeseries.");
        assertThat(QueryParams.step(params(), widest)).isPositive();
    }
}
