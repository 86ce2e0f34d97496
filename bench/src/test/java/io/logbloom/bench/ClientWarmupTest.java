package io.logbloom.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ClientWarmupTest {
    @Test
    void run_getsTheStubRequestsTimesPlusTheFloorRequests_andReportsAFloor() throws Exception {
        ClientWarmup.Result result = ClientWarmup.run(40);

        assertThat(result.served()).isEqualTo(40 + ClientWarmup.FLOOR_REQUESTS);
        assertThat(result.floorP50Millis()).isPositive();
    }

    @Test
    void cannedAnswer_isShapedAsLokisStreamsAnswerWithStats() {
        var answer = ClientWarmup.cannedAnswer();

        assertThat(answer.path("data").path("resultType").asText()).isEqualTo("streams");
        assertThat(answer.path("data").path("result").get(0).path("values").get(0).size()).isEqualTo(2);
        assertThat(answer.path("data").path("stats").path("summary").has("execTime")).isTrue();
    }

    @Test
    void run_refusesNegativeCounts() {
        assertThatThrownBy(() -> ClientWarmup.run(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
