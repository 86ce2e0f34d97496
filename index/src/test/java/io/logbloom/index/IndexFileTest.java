package io.logbloom.index;

import static io.logbloom.index.IndexFixtures.ref;
import static io.logbloom.index.IndexFixtures.sel;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.chunks.ChunkRef;
import io.logbloom.chunks.Labels;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

final class IndexFileTest {
    private static final String T = "tenant-a";
    private static final long DAY = 86_400_000_000_000L;
    private final IndexFileWriter writer = new IndexFileWriter();

    private static List<SeriesChunks> content() {
        Labels a = Labels.of("app", "api", "env", "prod", "region", "日本");
        Labels b = Labels.of("app", "web", "env", "");
        ChunkRef collided = new ChunkRef(T, 0x1234L, 50, 60, -7, 99, 3);
        return List.of(
                new SeriesChunks(b, List.of(ref(T, b, 30, 40))),
                new SeriesChunks(a, List.of(ref(T, a, 20, 25), ref(T, a, 10, 15), collided, ref(T, a, -5, 1))));
    }

    private byte[] encoded() {
        return writer.write(T, 3, DAY, content());
    }

    @Test
    void write_open_roundTrip() throws Exception {
        IndexFileReader file = IndexFileReader.open("f1", encoded());
        assertThat(file.tenant()).isEqualTo(T);
        assertThat(file.periodNumber()).isEqualTo(3);
        assertThat(file.periodNanos()).isEqualTo(DAY);
        assertThat(file.seriesCount()).isEqualTo(2);
        assertThat(file.chunkRefCount()).isEqualTo(5);
        HeadIndex head = new HeadIndex();
        for (SeriesChunks s : content()) {
            for (ChunkRef r : s.chunks()) {
                head.add(T, s.labels(), r);
            }
        }
        for (List<LabelMatcher> m : List.of(sel("app", "=~", ".+"), sel("env", "=", "", "app", "=~", "w.*"),
                sel("region", "=", "日本"), List.<LabelMatcher>of())) {
            assertThat(file.chunks(T, m, Long.MIN_VALUE, Long.MAX_VALUE))
                    .isEqualTo(head.chunks(T, m, Long.MIN_VALUE, Long.MAX_VALUE));
            assertThat(file.chunks(T, m, 12, 31)).isEqualTo(head.chunks(T, m, 12, 31));
            assertThat(file.labelNames(T, m, 0, 100)).isEqualTo(head.labelNames(T, m, 0, 100));
            assertThat(file.labelValues(T, "env", m, 0, 100)).isEqualTo(head.labelValues(T, "env", m, 0, 100));
        }
        assertThat(file.chunks(T, sel("app", "=", "api"), 0, 100).get(0).chunks())
                .extracting(ChunkRef::fingerprint).contains(0x1234L);
        assertThat(file.chunks("other", sel("app", "=", "api"), 0, 100)).isEmpty();
    }

    @Test
    void write_emptyContent_roundTrip() throws Exception {
        IndexFileReader file = IndexFileReader.open("empty", writer.write(T, -2, DAY, List.of()));
        assertThat(file.seriesCount()).isZero();
        assertThat(file.periodNumber()).isEqualTo(-2);
        assertThat(file.labelNames(T, List.of(), 0, 10)).isEmpty();
    }

    @Test
    void write_deterministic_sameBytesForSameContent() {
        List<SeriesChunks> reversed = new java.util.ArrayList<>(content());
        java.util.Collections.reverse(reversed);
        assertThat(encoded()).isEqualTo(writer.write(T, 3, DAY, reversed));
    }

    @Test
    void write_refOfOtherTenant_rejected() {
        Labels a = Labels.of("app", "x");
        assertThatThrownBy(() -> writer.write(T, 0, DAY, List.of(new SeriesChunks(a, List.of(ref("b", a, 1, 2))))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'b'");
    }

    @Test
    void open_everyFlippedByte_rejected() {
        byte[] good = encoded();
        for (int i = 0; i < good.length; i++) {
            for (int bit : new int[] {0x01, 0x80}) {
                byte[] bad = good.clone();
                bad[i] ^= (byte) bit;
                int at = i;
                assertThatThrownBy(() -> IndexFileReader.open("flip", bad))
                        .as("flipped bit %x at %d", bit, at)
                        .isInstanceOf(IndexFormatException.class)
                        .hasMessageContaining("index file flip");
            }
        }
    }

    @Test
    void open_everyTruncation_rejected() {
        byte[] good = encoded();
        for (int len = 0; len < good.length; len++) {
            byte[] bad = Arrays.copyOf(good, len);
            assertThatThrownBy(() -> IndexFileReader.open("cut", bad))
                    .as("truncated to %d", len)
                    .isInstanceOf(IndexFormatException.class)
                    .hasMessageMatching("index file cut: .*(truncated|checksum mismatch).*");
        }
    }

    @Test
    void open_otherVersion_rejectedNamingIt() {
        for (int version : new int[] {0, 4, 255}) {
            byte[] bad = encoded();
            bad[4] = (byte) version;
            assertThatThrownBy(() -> IndexFileReader.open("v", bad))
                    .isInstanceOf(IndexFormatException.class)
                    .hasMessageContaining("unsupported version " + version);
        }
    }

    @Test
    void open_badMagic_rejected() {
        byte[] bad = encoded();
        bad[0] = 'X';
        assertThatThrownBy(() -> IndexFileReader.open("m", bad))
                .isInstanceOf(IndexFormatException.class).hasMessageContaining("bad magic");
    }

    @Test
    void open_previousVersionFile_readsItsRowChunkRefs() throws Exception {
        byte[] v1;
        try (var in = IndexFileTest.class.getResourceAsStream("/index-v1.idx")) {
            v1 = in.readAllBytes(); // written by the version-1 writer from content()
        }
        assertThat(v1[4]).isEqualTo((byte) 1);
        IndexFileReader file = IndexFileReader.open("v1", v1);
        assertThat(file.chunkRefCount()).isEqualTo(5);
        assertThat(file.chunks(T, List.of(), Long.MIN_VALUE, Long.MAX_VALUE))
                .isEqualTo(IndexFileReader.open("v2", encoded()).chunks(T, List.of(), Long.MIN_VALUE, Long.MAX_VALUE));
    }

    @Test
    void write_open_columnarRefs_keepTheirObjectKeys() throws Exception {
        Labels a = Labels.of("app", "api");
        Labels b = Labels.of("app", "web");
        String object = T + "/objects/000000000000002a.lbo";
        ChunkRef inObjectA = new ChunkRef(T, a.fingerprint(), 10, 20, 0xCAFE, 500, 40, object);
        ChunkRef inObjectB = new ChunkRef(T, b.fingerprint(), 12, 18, 0xCAFE, 300, 20, object);
        ChunkRef rowChunk = IndexFixtures.ref(T, a, 30, 40);
        byte[] bytes = writer.write(T, 0, DAY, List.of(new SeriesChunks(a, List.of(inObjectA, rowChunk)),
                new SeriesChunks(b, List.of(inObjectB))));

        IndexFileReader file = IndexFileReader.open("c", bytes);

        List<SeriesChunks> all = file.chunks(T, List.of(), Long.MIN_VALUE, Long.MAX_VALUE);
        assertThat(all).containsExactly(new SeriesChunks(a, List.of(inObjectA, rowChunk)),
                new SeriesChunks(b, List.of(inObjectB)));
        assertThat(all.get(0).chunks().get(0).objectKey()).isEqualTo(object);
        assertThat(all.get(0).chunks().get(1).isColumnar()).isFalse();
    }

    @Test
    void columnarRef_outsideItsTenant_rejected() {
        assertThatThrownBy(() -> new ChunkRef(T, 1, 0, 1, 0, 1, 1, "other/objects/x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside tenant");
    }

    @Test
    void open_version2File_readsItsRefsWithNothingSuperseded() throws Exception {
        byte[] v2;
        try (var in = IndexFileTest.class.getResourceAsStream("/index-v2.idx")) {
            v2 = in.readAllBytes(); // written by the version-2 writer from content() plus a columnar ref of b
        }
        assertThat(v2[4]).isEqualTo((byte) 2);
        IndexFileReader file = IndexFileReader.open("v2", v2);
        assertThat(file.chunkRefCount()).isEqualTo(6);
        assertThat(file.supersededObjectKeys()).isEmpty();
        assertThat(file.chunks(T, sel("app", "=", "web"), Long.MIN_VALUE, Long.MAX_VALUE).get(0).chunks())
                .extracting(ChunkRef::objectKey).contains(T + "/objects/000000000000002a.lbo");
    }

    @Test
    void write_open_supersededKeys_roundTrip_andNeverBesideOwnRefs() throws Exception {
        Labels a = Labels.of("app", "api");
        String replaced = T + "/objects/0000000000000001-old.lbo";
        String kept = T + "/objects/0000000000000002-new.lbo";
        ChunkRef ref = new ChunkRef(T, a.fingerprint(), 10, 20, 1, 500, 40, kept);
        byte[] bytes = writer.write(T, 0, DAY, List.of(new SeriesChunks(a, List.of(ref))),
                java.util.Set.of(replaced, T + "/objects/0000000000000000-older.lbo"));

        IndexFileReader file = IndexFileReader.open("s", bytes);

        assertThat(bytes[4]).isEqualTo((byte) 3);
        assertThat(file.supersededObjectKeys()).containsExactlyInAnyOrder(replaced,
                T + "/objects/0000000000000000-older.lbo");
        assertThat(file.chunks(T, List.of(), Long.MIN_VALUE, Long.MAX_VALUE))
                .containsExactly(new SeriesChunks(a, List.of(ref)));
        assertThat(IndexFileReader.open("e", encoded()).supersededObjectKeys()).isEmpty();
        assertThatThrownBy(() -> writer.write(T, 0, DAY, List.of(new SeriesChunks(a, List.of(ref))),
                java.util.Set.of(kept)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("supersedes");
    }
}
