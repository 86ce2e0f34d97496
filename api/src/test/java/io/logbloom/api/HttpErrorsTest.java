package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.ingest.PushDecodeException;
import java.io.IOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

final class HttpErrorsTest {
    @Test
    void classify_badInput_4xxWithMessage() {
        assertThat(HttpErrors.classify(new HttpException(413, "too_large", "big")))
                .isEqualTo(new HttpErrors.Classified(413, "big", "too_large"));
        assertThat(HttpErrors.classify(new PushDecodeException("bad snappy")))
                .isEqualTo(new HttpErrors.Classified(400, "bad snappy", "bad_request"));
        assertThat(HttpErrors.classify(new IllegalArgumentException("invalid label name: '1a'")))
                .isEqualTo(new HttpErrors.Classified(400, "invalid label name: '1a'", "bad_request"));
        assertThat(HttpErrors.classify(new ExecutionException(new IllegalArgumentException("x"))).status())
                .isEqualTo(400);
    }

    @Test
    void classify_serverFailure_5xxWithoutInternals() {
        HttpErrors.Classified c = HttpErrors.classify(new IOException("/secret/path/chunk unreadable"));
        assertThat(c.status()).isEqualTo(500);
        assertThat(c.reason()).isEqualTo("internal");
        assertThat(c.message()).doesNotContain("/secret").contains("IOException");
        assertThat(HttpErrors.classify(new TimeoutException("query exceeded 1m")))
                .isEqualTo(new HttpErrors.Classified(504, HttpErrors.DEADLINE_EXCEEDED, "timeout"));
    }

    @Test
    void classify_ingesterBackpressureAndFailure_429And503() {
        assertThat(HttpErrors.classify(new io.logbloom.ingest.MemoryBudgetExceededException("over max_memory", 2)))
                .isEqualTo(new HttpErrors.Classified(429, "over max_memory", "memory_limited"));
        assertThat(HttpErrors.classify(new io.logbloom.ingest.UnmergedBacklogExceededException("over backlog", 1)))
                .isEqualTo(new HttpErrors.Classified(429, "over backlog", "unmerged_backlog_limited"));
        assertThat(HttpErrors.classify(new io.logbloom.ingest.IngesterFailedException("cannot persist", null)))
                .isEqualTo(new HttpErrors.Classified(503, "cannot persist", HttpErrors.INGESTER_FAILED));
    }

    @Test
    void classify_strongReadNotCoveredOrKafkaUnreachable_503WithMessage() {
        String uncovered = "strong read consistency: partitions [1] are not covered after 500 ms";
        assertThat(HttpErrors.classify(new ExecutionException(new io.logbloom.kafka.NotCaughtUpException(uncovered))))
                .isEqualTo(new HttpErrors.Classified(503, uncovered, "not_caught_up"));
        String unreachable = "strong read consistency: cannot read the committed offsets of topic t";
        assertThat(HttpErrors.classify(new java.io.UncheckedIOException(
                new io.logbloom.kafka.KafkaUnavailableException(unreachable, null))))
                .isEqualTo(new HttpErrors.Classified(503, unreachable, "not_caught_up"));
    }

    @Test
    void tenantResolver_rules() {
        assertThat(new TenantResolver(false).tenant(null)).isEqualTo("fake");
        assertThat(new TenantResolver(false).tenant("team-a")).isEqualTo("team-a");
        assertThat(new TenantResolver(true).tenant("team-a")).isEqualTo("team-a");
        assertThatThrownBy(() -> new TenantResolver(true).tenant(null))
                .isInstanceOfSatisfying(HttpException.class, e -> assertThat(e.status()).isEqualTo(401))
                .hasMessage("no org id");
        assertThatThrownBy(() -> new TenantResolver(false).tenant("a/b"))
                .isInstanceOfSatisfying(HttpException.class, e -> assertThat(e.status()).isEqualTo(400))
                .hasMessageContaining("invalid X-Scope-OrgID header: tenant id 'a/b' contains unsupported character '/'");
    }
}
