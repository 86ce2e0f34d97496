package io.logbloom.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.logbloom.chunks.Label;
import io.logbloom.chunks.LogEntry;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class LogLevelDetectorTest {
    private final LogLevelDetector detector = new LogLevelDetector(PushEnrichmentConfig.DEFAULT_LOG_LEVEL_FIELDS);

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        // JSON level field, values mapped case-insensitively
        "{\"level\":\"WARN\",\"msg\":\"x\"}|warn",
        "{\"msg\":\"x\",\"severity\":\"dbg\"}|debug",
        "{\"lvl\":\"trc\"}|trace",
        "{\"Level\":\"Err\"}|error",
        "  {\"LEVEL\":\"critical\"}  |critical",
        "{\"level\":\"fatal\"}|fatal",
        "{\"level\":\"inf\"}|info",
        "{\"level\":\"warning\"}|warn",
        // JSON without a level field (or an unknown value) falls back to keywords
        "{\"msg\":\"an error happened\"}|error",
        "{\"level\":\"verbose\",\"msg\":\"debug: x\"}|debug",
        "{\"nested\":{\"level\":\"error\"}}|error",
        // logfmt, first level field wins, quoted values
        "ts=1 level=error msg=boom|error",
        "ts=1 lvl=\"WRN\" msg=\"a b\"|warn",
        "ts=1 msg=\"level=error inside\" level=debug|debug",
        "ts=1 msg=nothing|unknown",
        // plain lines: Loki's keyword order
        "INFO: started|info",
        "something info and error|info",
        "ERR: disk full|error",
        "got an ERROR|error",
        "WARN: slow|warn",
        "a warning here|warn",
        "CRITICAL: meltdown|critical",
        "DEBUG: detail|debug",
        "debug without colon|unknown",
        "plain line|unknown",
    })
    void fromLine_perRule(String line, String expected) {
        assertThat(detector.detect(List.of(new Label("app", "a")), LogEntry.of(1, line))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "severity_number {0} -> {1}")
    @CsvSource({"0,unknown", "1,trace", "4,trace", "5,debug", "8,debug", "9,info", "12,info", "13,warn", "16,warn",
            "17,error", "20,error", "21,fatal", "24,fatal", "25,unknown", "x,info"})
    void severityNumber_otlpRanges(String number, String expected) {
        LogEntry e = new LogEntry(1, "level=error ignored", List.of(new Label("severity_number", number)));
        assertThat(detector.detect(List.of(), e)).isEqualTo(expected);
    }

    @Test
    void jsonLevel_fromTopLevelFieldsOnly_evenWhenANestedNameFlattensToALevelField() {
        LogLevelDetector underscored = new LogLevelDetector(List.of("log_level"));
        assertThat(underscored.fromLine(utf8("{\"msg\":\"x\",\"log_level\":\"WARN\"}"))).isEqualTo("warn");
        // log.level flattens to log_level and comes first; Loki reads the top-level log_level all the same
        assertThat(underscored.fromLine(utf8("{\"log\":{\"level\":\"debug\"},\"log_level\":\"warn\",\"m\":\"info\"}")))
                .isEqualTo("warn");
        assertThat(detector.fromLine(utf8("{\"http\":{\"level\":\"debug\"},\"Level\":\"ERR\"}"))).isEqualTo("error");
    }

    @Test
    void lineAsUtf8_sameLevelWhetherTheEntryCameAsBytesOrAsAString() {
        List<String> lines = List.of("ts=1 lévél=error level=warn msg=\"é\"", "\u3000{\"level\":\"debug\"}\u2003",
                "\u00a0{\"level\":\"debug\"} error", "{\u0000\"level\":\"warn\"} info", "名前=値 level=\"E\\\"R\" ERROR",
                "{\"lvl\":\"WRN\",\"m\":\"ü\"}", "😀 WARNING: 🔥", "critical: ünïcödé", "");
        // the second is JSON by the brace test, but no JSON to the parser (a leading U+3000): keywords, none of them
        List<String> expected = List.of("warn", "unknown", "error", "info", "error", "warn", "warn", "critical", "unknown");
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            LogEntry fromBytes = LogEntry.ofUtf8(1, utf8(line), List.of());
            assertThat(detector.detect(List.of(), fromBytes)).as(line).isEqualTo(expected.get(i));
            assertThat(detector.detect(List.of(), LogEntry.of(1, line))).as(line).isEqualTo(expected.get(i));
        }
    }

    private static byte[] utf8(String line) {
        return line.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void streamLabel_thenMetadata_winOverLine() {
        LogEntry e = new LogEntry(1, "level=error x", List.of(new Label("severity", "Notice")));
        assertThat(detector.detect(List.of(new Label("level", "custom")), e)).isEqualTo("custom");
        assertThat(detector.detect(List.of(), e)).isEqualTo("Notice");
    }

    @Test
    void enricher_addsServiceNameAndLevel_keepsExistingDetectedLevel() {
        PushEnricher enricher = new PushEnricher(PushEnrichmentConfig.defaults());
        List<PushStream> out = enricher.enrich(List.of(new PushStream("{app=\"shop\"}", List.of(
                LogEntry.of(1, "level=warn x=1"),
                new LogEntry(2, "level=warn", List.of(new Label("detected_level", "given"))))),
                new PushStream("{app=\"a\", detected_level=\"info\"}", List.of(LogEntry.of(3, "level=error")))));
        assertThat(out.get(0).labels()).isEqualTo("{app=\"shop\", service_name=\"shop\"}");
        assertThat(out.get(0).entries().get(0).metadataValue("detected_level")).isEqualTo("warn");
        assertThat(out.get(0).entries().get(1).metadata()).containsExactly(new Label("detected_level", "given"));
        assertThat(out.get(1).entries().get(0).metadata()).isEmpty();
    }

    @Test
    void enricher_levelFromStreamLabel_appendedAfterEveryMetadataShape() {
        PushEnricher enricher = new PushEnricher(PushEnrichmentConfig.defaults());
        Label warn = new Label(LogLevelDetector.DETECTED_LEVEL, "warn");
        List<PushStream> out = enricher.enrich(List.of(new PushStream("{app=\"a\", level=\"warn\"}", List.of(
                LogEntry.of(1, "level=error"),
                new LogEntry(2, "x", List.of(new Label("k", "v"))),
                new LogEntry(3, "y", List.of(new Label("k", "v"), new Label("m", "n")))))));
        assertThat(out.get(0).entries()).containsExactly(
                new LogEntry(1, "level=error", List.of(warn)),
                new LogEntry(2, "x", List.of(new Label("k", "v"), warn)),
                new LogEntry(3, "y", List.of(new Label("k", "v"), new Label("m", "n"), warn)));
    }

    @Test
    void enricher_sameSelectorInLaterPushes_storedUnderOneLabelsInstance_levelsStillPerEntry() {
        PushEnricher enricher = new PushEnricher(PushEnrichmentConfig.defaults());
        // a new String each time, as the decoder makes one per push
        List<PushStream> first = enricher.enrich(List.of(new PushStream(new String("{app=\"shop\"}"),
                List.of(LogEntry.of(1, "level=warn a")))));
        List<PushStream> second = enricher.enrich(List.of(new PushStream(new String("{app=\"shop\"}"),
                List.of(LogEntry.of(2, "level=error b")))));
        assertThat(second.get(0).labels()).isEqualTo("{app=\"shop\", service_name=\"shop\"}")
                .isSameAs(first.get(0).labels());
        assertThat(first.get(0).entries().get(0).metadataValue("detected_level")).isEqualTo("warn");
        assertThat(second.get(0).entries().get(0).metadataValue("detected_level")).isEqualTo("error");
        // labels the enricher leaves as they are come back as one instance too
        PushEnricher namesOnly = new PushEnricher(new PushEnrichmentConfig(List.of("app"), false, List.of(),
                OtlpConfig.defaults()));
        String named = "{app=\"a\", service_name=\"s\"}";
        PushStream once = namesOnly.enrich(List.of(new PushStream(new String(named), List.of(LogEntry.of(1, "x"))))).get(0);
        PushStream again = namesOnly.enrich(List.of(new PushStream(new String(named), List.of(LogEntry.of(2, "y"))))).get(0);
        assertThat(again.labels()).isEqualTo(named).isSameAs(once.labels());
    }

    @Test
    void enricher_moreDistinctSelectorsThanItKeeps_eachEnrichedByItsOwnLabels() {
        PushEnricher enricher = new PushEnricher(PushEnrichmentConfig.defaults());
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < PushEnricher.MAX_PLANS + 10; i++) {
                String selector = i % 2 == 0 ? "{app=\"a" + i + "\"}" : "{app=\"a" + i + "\", level=\"info\"}";
                PushStream out = enricher.enrich(List.of(new PushStream(selector,
                        List.of(LogEntry.of(1, "level=error x"))))).get(0);
                assertThat(out.labels()).isEqualTo(selector.replace("}", ", service_name=\"a" + i + "\"}"));
                assertThat(out.entries().get(0).metadataValue("detected_level")).isEqualTo(i % 2 == 0 ? "error" : "info");
            }
        }
    }

    @Test
    void enricher_off_returnsInput() {
        PushEnricher off = new PushEnricher(new PushEnrichmentConfig(List.of(), false, List.of(), OtlpConfig.defaults()));
        List<PushStream> in = List.of(new PushStream("{app=\"a\"}", List.of(LogEntry.of(1, "error"))));
        assertThat(off.enrich(in)).isSameAs(in);
    }
}
