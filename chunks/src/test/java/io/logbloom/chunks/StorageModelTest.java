package io.logbloom.chunks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Labels, tenant ids, chunk refs and S3 config: the value types of the module. */
final class StorageModelTest {
    @Test
    void labels_sorted_andFingerprintStable() {
        Labels a = Labels.of("job", "api", "app", "x");
        Labels b = Labels.of(Map.of("app", "x", "job", "api"));
        assertThat(a).isEqualTo(b);
        assertThat(a.names()).containsExactly("app", "job");
        assertThat(a.fingerprint()).isEqualTo(b.fingerprint());
        assertThat(a.fingerprint()).isNotEqualTo(Labels.of("app", "x", "job", "api2").fingerprint());
        assertThat(a.toString()).isEqualTo("{app=\"x\", job=\"api\"}");
        assertThat(Labels.of("a", "q\"\\\n").toString()).isEqualTo("{a=\"q\\\"\\\\\\n\"}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1abc", "a-b", "a.b", "ü", "a b"})
    void labels_invalidName_rejectedWithName(String name) {
        assertThatThrownBy(() -> Labels.of(name, "v"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid label name");
    }

    @Test
    void labels_emptyOrDuplicate_rejected() {
        assertThatThrownBy(() -> Labels.of(List.of())).hasMessage("label set is empty");
        assertThatThrownBy(() -> Labels.of("a", "1", "a", "2")).hasMessage("duplicate label name: a");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "a/b", "../etc", "tenant with space", "ünï", "index", "blooms", "compactor"})
    void tenantIds_invalid_rejectedNamingTheId(String tenant) {
        assertThatThrownBy(() -> TenantIds.validate(tenant)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tenant id");
        assertThatThrownBy(() -> new ChunkRef(tenant, 1, 0, 1, 0, 1, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tenantIds_lokiCharacters_accepted() {
        TenantIds.validate("fake");
        TenantIds.validate("Team-1_prod.eu!*'()");
        TenantIds.validate("a".repeat(150));
        assertThatThrownBy(() -> TenantIds.validate("a".repeat(151))).hasMessageContaining("151");
    }

    @Test
    void chunkRef_objectKey_isValidKey() {
        ChunkRef ref = new ChunkRef("team.a", 0xABCDEFL, 10, 255, 0xCAFE, 100, 3);
        assertThat(ref.objectKey()).isEqualTo("team.a/0000000000abcdef/a-ff-0000cafe");
        ObjectKeys.validate(ref.objectKey());
        assertThat(ref.overlaps(255, 300)).isTrue();
        assertThat(ref.overlaps(256, 300)).isFalse();
        assertThat(ref.overlaps(0, 10)).isFalse();
        assertThatThrownBy(() -> new ChunkRef("t", 1, 10, 9, 0, 1, 1)).hasMessageContaining("9");
    }

    @Test
    void s3Config_validation() {
        URI endpoint = URI.create("http://127.0.0.1:9000");
        assertThat(new S3Config(endpoint, "b", "us-east-1", null, null, true, null).prefix()).isEmpty();
        assertThatThrownBy(() -> new S3Config(endpoint, "b", "us-east-1", "key", null, true, ""))
                .hasMessageContaining("access key and secret key must be given together");
        assertThatThrownBy(() -> new S3Config(endpoint, " ", "us-east-1", null, null, true, ""))
                .hasMessageContaining("bucket");
        assertThatThrownBy(() -> new S3Config(URI.create("relative/path"), "b", "r", null, null, true, ""))
                .hasMessageContaining("'relative/path'");
        assertThatThrownBy(() -> new S3Config(endpoint, "b", "r", null, null, true, "no-slash"))
                .hasMessageContaining("'no-slash' must end with '/'");
        assertThatThrownBy(() -> new S3Config(endpoint, "b", "r", null, null, true, "../x/"))
                .hasMessageContaining("'..'");
        assertThat(new S3Config(endpoint, "b", "r", "AK", "very-secret", false, "p/").toString())
                .contains("AK").doesNotContain("very-secret");
    }
}
