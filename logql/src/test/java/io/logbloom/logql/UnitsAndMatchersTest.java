package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class UnitsAndMatchersTest {

    @ParameterizedTest
    @CsvSource({"1s,1000000000", "1m30s,90000000000", "250ms,250000000", "1.5s,1500000000", "100us,100000", "2h,7200000000000",
        "1d,86400000000000", "1w,604800000000000", "10ns,10", "0,0", "-5s,-5000000000"})
    void parseDuration(String text, long nanos) {
        assertThat(Units.parseDurationNanos(text)).isEqualTo(nanos);
    }

    @Test
    void parseDuration_invalid_namesText() {
        assertThatThrownBy(() -> Units.parseDurationNanos("5x")).hasMessage("invalid duration: \"5x\" (unknown unit \"x\")");
        assertThatThrownBy(() -> Units.parseDurationNanos("abc")).hasMessageContaining("\"abc\"");
        assertThatThrownBy(() -> Units.parseDurationNanos("")).hasMessageContaining("invalid duration");
    }

    @ParameterizedTest
    @CsvSource({"PT5M,5m", "PT1H30M,1h30m", "P1D,1d", "PT0.25S,250ms", "PT0S,0s", "P14D,2w"})
    void formatDuration(String iso, String text) {
        assertThat(Units.formatDuration(Duration.parse(iso))).isEqualTo(text);
    }

    @ParameterizedTest
    @CsvSource({"10.0.0.0/8,10.1.2.3,true", "10.0.0.0/8,11.0.0.1,false", "192.168.0.1,192.168.0.1,true",
        "192.168.0.1,192.168.0.2,false", "10.0.0.1-10.0.0.5,10.0.0.5,true", "10.0.0.1-10.0.0.5,10.0.0.6,false",
        "::1,::1,true", "2001:db8::/32,2001:db8:1::1,true", "2001:db8::/32,2001:db9::1,false", "10.0.0.0/8,::1,false"})
    void ipMatcher(String pattern, String address, boolean matches) {
        assertThat(IpMatcher.parse(pattern).matches(address)).isEqualTo(matches);
    }

    @Test
    void ipMatcher_findsAddressesInLines() {
        IpMatcher m = IpMatcher.parse("192.168.0.0/16");
        assertThat(m.matchesAnyIn("client 192.168.4.2: GET /")).isTrue();
        assertThat(m.matchesAnyIn("client 10.0.0.1 and 1.2.3")).isFalse();
        assertThat(IpMatcher.parse("::1").matchesAnyIn("from ::1 port 80")).isTrue();
        assertThatThrownBy(() -> IpMatcher.parse("1.2.3.4/40")).hasMessageContaining("\"1.2.3.4/40\"");
        assertThatThrownBy(() -> IpMatcher.parse("10.0.0.9-10.0.0.1")).hasMessageContaining("after its end");
    }

    @Test
    void goStrings_quoteUnquoteRoundTrip() {
        String s = "a\"b\\c\nd\te\u0001é";
        assertThat(GoStrings.unquote(GoStrings.quote(s))).isEqualTo(s);
        assertThat(GoStrings.quote(s)).isEqualTo("\"a\\\"b\\\\c\\nd\\te\\x01é\"");
        assertThat(GoStrings.unquote("\"\\x41\\101\\u00e9\"")).isEqualTo("AAé");
        assertThat(GoStrings.unquote("`a\\nb`")).isEqualTo("a\\nb");
        assertThatThrownBy(() -> GoStrings.unquote("\"\\q\"")).hasMessageContaining("invalid escape \\q");
    }

    @Test
    void matcher_regexIsAnchored_dotMatchesNewlineOnlyWithFlag() {
        assertThat(new Matcher(MatchType.REGEX, "a", "fo+").matches("foo")).isTrue();
        assertThat(new Matcher(MatchType.REGEX, "a", "fo+").matches("xfoo")).isFalse();
        assertThat(new Matcher(MatchType.REGEX, "a", "a.b").matches("a\nb")).isFalse();
        assertThat(new Matcher(MatchType.REGEX, "a", "(?s)a.b").matches("a\nb")).isTrue();
        assertThat(new Matcher(MatchType.NOT_EQUAL, "a", "x").matches(null)).isTrue();
        assertThat(new Matcher(MatchType.REGEX, "a", "(?P<x>\\d+)").matches("12")).isTrue();
        assertThatThrownBy(() -> new Matcher(MatchType.REGEX, "a", "(")).hasMessageContaining("invalid regex \"(\"");
    }

    @Test
    void logfmt_decodesAndReportsStrictErrors() {
        List<String> got = new ArrayList<>();
        Logfmt.decode("a=1 b=\"x y\" c d= e=\"q\\\"\"", false, (k, v, standalone) -> got.add(k + "=" + v + (standalone ? "!" : "")));
        assertThat(got).containsExactly("a=1", "b=x y", "c=!", "d=", "e=q\"");
        assertThatThrownBy(() -> Logfmt.decode("a=1 =2", true, (k, v, s) -> { }))
                .hasMessageContaining("logfmt syntax error at pos 5");
        assertThatThrownBy(() -> Logfmt.decode("a=\"open", true, (k, v, s) -> { })).hasMessageContaining("unterminated");
    }

    @Test
    void linePattern_matchesLikeLoki() {
        LinePattern p = LinePattern.parse("<ip> - <_> [<ts>] \"<method> <path>\"", true);
        assertThat(p.match("1.2.3.4 - bob [today] \"GET /x\"")).containsEntry("ip", "1.2.3.4")
                .containsEntry("ts", "today").containsEntry("method", "GET").containsEntry("path", "/x");
        assertThat(p.match("nothing like it")).isNull();
        assertThat(LinePattern.parse("<_> x <_>", false).literals()).containsExactly(" x ");
    }

    @Test
    void goRegex_namedGroupsInOrder_re2Semantics() {
        com.google.re2j.Pattern p = GoRegex.compileSearch("(?P<first_name>\\w+) (x)(?<last>\\w+) [(?P<]");
        assertThat(GoRegex.groupNames(p)).containsExactly("first_name", "last");
        assertThat(Matcher.anchored("a").matcher("a\n").matches()).as("$ is end of text").isFalse();
        assertThat(GoRegex.compileSearch("(?i)k").matcher("\u212a").find()).as("Unicode folding").isTrue();
        assertThat(GoRegex.compileLineFilter("a.b").matcher("a\nb").find()).isTrue();
        assertThat(GoRegex.compileSearch("a.b").matcher("a\rb").find()).as(". excludes only \\n").isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> GoRegex.compileSearch("(?<=a)b"))
                .hasMessageStartingWith("invalid regex \"(?<=a)b\"");
    }
}
