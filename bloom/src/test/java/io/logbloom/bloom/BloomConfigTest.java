package io.logbloom.bloom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class BloomConfigTest {

    @Test
    void defaults_matchValkeyExceptCapacity() {
        assertThat(BloomConfig.defaults())
                .isEqualTo(new BloomConfig(1024, 0.01, 2.0, 0.5, 64L << 20, false));
    }

    static Stream<Arguments> invalidConfigs() {
        return Stream.of(
                Arguments.of((UnaryOperator<BloomConfig>) c -> c.withInitialCapacity(0), "initialCapacity must be at least 1, got 0"),
                Arguments.of((UnaryOperator<BloomConfig>) c -> c.withInitialCapacity(-5), "initialCapacity must be at least 1, got -5"),
                Arguments.of((UnaryOperator<BloomConfig>) c -> c.withErrorRate(0), "errorRate must be in (0, 1), got 0.0"),
                Arguments.of((UnaryOperator<BloomConfig>) c -> c.withErrorRate(1), "errorRate must be in (0, 1), got 1.0"),
                Arguments.of((UnaryOperator<BloomConfig>) c -> c.withErrorRate(-0.1), "errorRate must be in (0, 1), got -0.1"),
                Arguments.of((UnaryOperator<BloomConfig>) c -> c.withErrorRate(Double.NaN), "errorRate must be in (0, 1), got NaN"),
                Arguments.of((UnaryOperator<BloomConfig>) c -> c.withExpansion(0.5), "expansion must be a finite number of at least 1, got 0.5"),
                Arguments.of((UnaryOperator<BloomConfig>) c -> c.withExpansion(Double.POSITIVE_INFINITY), "expansion must be a finite number of at least 1, got Infinity"),
                Arguments.of((UnaryOperator<BloomConfig>) c -> c.withTightening(0), "tightening must be in (0, 1), got 0.0"),
                Arguments.of((UnaryOperator<BloomConfig>) c -> c.withTightening(1.2), "tightening must be in (0, 1), got 1.2"),
                Arguments.of((UnaryOperator<BloomConfig>) c -> c.withMaxSizeBytes(0), "maxSizeBytes must be at least 1, got 0"));
    }

    @ParameterizedTest
    @MethodSource("invalidConfigs")
    void invalidParameter_rejectedNamingParameterAndValue(UnaryOperator<BloomConfig> change, String message) {
        assertThatThrownBy(() -> change.apply(BloomConfig.defaults()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void withers_changeOnlyTheirField() {
        BloomConfig config = BloomConfig.defaults()
                .withInitialCapacity(10).withErrorRate(0.001).withExpansion(1).withTightening(0.8)
                .withMaxSizeBytes(4096).withNonScaling(true);
        assertThat(config).isEqualTo(new BloomConfig(10, 0.001, 1, 0.8, 4096, true));
    }
}
