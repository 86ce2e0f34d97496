package io.logbloom.index;

import static io.logbloom.index.IndexFixtures.m;
import static io.logbloom.index.IndexFixtures.ref;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.Labels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Random selectors over random series: the head and an index file agree with a brute-force filter. */
final class MatcherPropertyTest {
    private static final String T = "t";
    private static final String[] NAMES = {"a", "b", "c"};
    private static final String[] VALUES = {"", "x", "y", "xy", "yx", "x1", "ü"};
    private static final String[] REGEXES = {"", "x", "x.*", ".*", ".+", "x|y", "y?", "x1?", "[xy]+", "ü|", "(?i)X"};
    private static final String[] OPS = {"=", "!=", "=~", "!~"};

    @Test
    void randomSelectors_headAndFile_equalBruteForce() throws Exception {
        Random random = new Random(20261122);
        HeadIndex head = new HeadIndex();
        List<Labels> all = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Map<String, String> map = new LinkedHashMap<>();
            map.put("id", "s" + i);
            for (String name : NAMES) {
                if (random.nextInt(3) > 0) {
                    map.put(name, VALUES[random.nextInt(VALUES.length)]);
                }
            }
            Labels labels = Labels.of(map);
            all.add(labels);
            head.add(T, labels, ref(T, labels, i, i + 10));
        }
        IndexFileReader file = IndexFileReader.open("p", new IndexFileWriter().write(T, 0, 1_000_000,
                head.chunks(T, List.of(), Long.MIN_VALUE, Long.MAX_VALUE)));
        int checked = 0;
        int rejected = 0;
        for (int round = 0; round < 2000; round++) {
            List<LabelMatcher> matchers = new ArrayList<>();
            int count = 1 + random.nextInt(3);
            for (int j = 0; j < count; j++) {
                String op = OPS[random.nextInt(OPS.length)];
                String value = op.length() == 2 && op.charAt(1) == '~'
                        ? REGEXES[random.nextInt(REGEXES.length)] : VALUES[random.nextInt(VALUES.length)];
                matchers.add(m(NAMES[random.nextInt(NAMES.length)], op, value));
            }
            long from = random.nextInt(220);
            long through = from + random.nextInt(50);
            if (matchers.stream().allMatch(LabelMatcher::matchesEmpty)) {
                assertThatThrownBy(() -> head.series(T, matchers, from, through))
                        .isInstanceOf(IllegalArgumentException.class);
                assertThatThrownBy(() -> file.series(T, matchers, from, through))
                        .isInstanceOf(IllegalArgumentException.class);
                rejected++;
                continue;
            }
            List<Labels> expected = all.stream()
                    .filter(l -> matchers.stream().allMatch(mt -> mt.matches(l)))
                    .filter(l -> {
                        long i = Long.parseLong(l.get("id").substring(1));
                        return from < through && i < through && i + 10 >= from;
                    })
                    .sorted()
                    .toList();
            assertThat(head.series(T, matchers, from, through)).as("%s [%d, %d)", matchers, from, through)
                    .isEqualTo(expected);
            assertThat(file.series(T, matchers, from, through)).as("%s [%d, %d)", matchers, from, through)
                    .isEqualTo(expected);
            assertThat(file.chunks(T, matchers, from, through)).isEqualTo(head.chunks(T, matchers, from, through));
            checked++;
        }
        assertThat(checked).isGreaterThan(1000);
        assertThat(rejected).isGreaterThan(50);
    }
}
