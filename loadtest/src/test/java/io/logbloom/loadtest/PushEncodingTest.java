package io.logbloom.loadtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.logbloom.loadtest.proto.PushProto;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

final class PushEncodingTest {
    private static PushBatch batch() {
        return new LogGenerator(new GeneratorConfig(11, "enc", 8, 300, true))
                .lane(0, 1, InstantSource.fixed(Instant.parse("2026-03-04T05:06:07.123456789Z"))).next();
    }

    @ParameterizedTest
    @EnumSource(PushEncoding.class)
    void encode_decodesToTheGeneratedStreams(PushEncoding encoding) throws Exception {
        PushBatch batch = batch();
        EncodedPush push = encoding.encode(batch);
        List<LogStream> decoded = LokiTestDouble.decode(push.body(), push.contentType(), push.contentEncoding());
        assertThat(decoded).isEqualTo(batch.streams());
        assertThat(push.lines()).isEqualTo(300);
        assertThat(push.lineBytes()).isEqualTo(batch.lineBytes());
        assertThat(push.needle()).isEqualTo(batch.needle());
    }

    @Test
    void protobuf_isSnappyBlockOfLokiPushRequest() throws Exception {
        PushBatch batch = batch();
        EncodedPush push = PushEncoding.PROTOBUF.encode(batch);
        assertThat(push.contentType()).isEqualTo("application/x-protobuf");
        assertThat(push.contentEncoding()).isNull();
        PushProto.PushRequest request = PushProto.PushRequest.parseFrom(Snappy.uncompress(push.body()));
        PushProto.EntryAdapter first = request.getStreams(0).getEntries(0);
        LogEntry expected = batch.streams().get(0).entries().get(0);
        assertThat(request.getStreams(0).getLabels()).isEqualTo(batch.streams().get(0).selector());
        assertThat(first.getTimestamp().getSeconds()).isEqualTo(expected.timestampNanos() / 1_000_000_000L);
        assertThat(first.getTimestamp().getNanos()).isEqualTo(123_456_789 + 0);
        assertThat(first.getStructuredMetadataList()).extracting(PushProto.LabelPairAdapter::getName)
                .containsExactly("session_id", "trace_id", "user_id");
    }

    @Test
    void json_usesLokiShapeAndGzipHeader() throws Exception {
        EncodedPush plain = PushEncoding.JSON.encode(batch());
        com.fasterxml.jackson.databind.JsonNode root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(plain.body());
        com.fasterxml.jackson.databind.JsonNode value = root.path("streams").path(0).path("values").path(0);
        assertThat(value.path(0).isTextual()).isTrue();
        assertThat(value.path(2).path("trace_id").asText()).matches("[0-9a-f]{32}");
        assertThat(root.path("streams").path(0).path("stream").path("run").asText()).isEqualTo("enc");
        EncodedPush gzip = PushEncoding.JSON_GZIP.encode(batch());
        assertThat(gzip.contentEncoding()).isEqualTo("gzip");
        assertThat(gzip.body().length).isLessThan(plain.body().length);
    }

    @Test
    void parse_acceptsCliNamesAndRejectsOthers() {
        assertThat(PushEncoding.parse("json-gzip")).isEqualTo(PushEncoding.JSON_GZIP);
        assertThat(PushEncoding.parse("PROTOBUF")).isEqualTo(PushEncoding.PROTOBUF);
        assertThatThrownBy(() -> PushEncoding.parse("xml")).hasMessageContaining("'xml'");
    }
}
