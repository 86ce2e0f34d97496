package io.logbloom.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

final class IndexUnionTest {
    /** A part answering fixed series in the order given (a real part answers in label order). */
    private record Part(List<SeriesChunks> answer) implements IndexReader {
        @Override
        public List<SeriesChunks> chunks(String tenant, List<LabelMatcher> matchers, long from, long through) {
            return answer;
        }

        @Override
        public List<Labels> series(String tenant, List<LabelMatcher> matchers, long from, long through) {
            return answer.stream().map(SeriesChunks::labels).toList();
        }

        @Override
        public List<String> labelNames(String tenant, List<LabelMatcher> matchers, long from, long through) {
            return List.of();
        }

        @Override
        public List<String> labelValues(String tenant, String name, List<LabelMatcher> matchers, long from,
                long through) {
            return List.of();
        }
    }

    private static ChunkRef ref(Labels series, long from, String object) {
        return new ChunkRef("t", series.fingerprint(), from, from + 10, 7, 100, 10, "t/objects/" + object);
    }

    /**
     * Random parts (series in label order or not, shared and own series, refs repeated across parts): the union
     * equals a reference built with sorted maps and sets, series in label order, refs sorted and distinct.
     */
    @Test
    void chunks_equalsASortedReference_forRandomParts() throws Exception {
        Random random = new Random(5);
        for (int trial = 0; trial < 300; trial++) {
            int partCount = 2 + random.nextInt(3);
            List<IndexReader> parts = new ArrayList<>();
            Map<Labels, TreeSet<ChunkRef>> expected = new TreeMap<>();
            for (int p = 0; p < partCount; p++) {
                Map<Labels, List<ChunkRef>> answer = new TreeMap<>();
                int series = random.nextInt(12);
                for (int i = 0; i < series; i++) {
                    Labels labels = Labels.of("app", "a" + random.nextInt(15), "env", random.nextBoolean() ? "x" : "y");
                    List<ChunkRef> refs = answer.computeIfAbsent(labels, k -> new ArrayList<>());
                    int n = 1 + random.nextInt(3);
                    for (int r = 0; r < n; r++) {
                        ChunkRef ref = ref(labels, random.nextInt(6) * 100L, "o" + random.nextInt(3));
                        if (!refs.contains(ref)) {
                            refs.add(ref);
                        }
                        expected.computeIfAbsent(labels, k -> new TreeSet<>(SeriesPostings.REF_ORDER)).add(ref);
                    }
                    refs.sort(SeriesPostings.REF_ORDER);
                }
                List<SeriesChunks> chunks = new ArrayList<>();
                answer.forEach((labels, refs) -> chunks.add(new SeriesChunks(labels, refs)));
                if (random.nextInt(4) == 0) {
                    Collections.shuffle(chunks, random); // the union must not rely on its parts' order
                }
                parts.add(new Part(chunks));
            }
            List<SeriesChunks> union = IndexUnion.chunks(parts, "t", List.of(), 0, 1_000);
            assertThat(union).extracting(SeriesChunks::labels).as("trial %d", trial)
                    .containsExactlyElementsOf(expected.keySet());
            for (SeriesChunks s : union) {
                assertThat(s.chunks()).as("trial %d %s", trial, s.labels())
                        .containsExactlyElementsOf(expected.get(s.labels()));
            }
        }
    }

    @Test
    void chunks_equalRefsInTwoParts_keepTheFirstPartsInstance() throws Exception {
        Labels labels = Labels.of("app", "api");
        ChunkRef first = ref(labels, 100, "o1");
        ChunkRef same = ref(labels, 100, "o1");
        List<SeriesChunks> union = IndexUnion.chunks(List.of(new Part(List.of(new SeriesChunks(labels, List.of(first)))),
                new Part(List.of(new SeriesChunks(labels, List.of(same))))), "t", List.of(), 0, 1_000);
        assertThat(union).hasSize(1);
        assertThat(union.get(0).chunks()).hasSize(1);
        assertThat(union.get(0).chunks().get(0)).isSameAs(first);
    }
}
