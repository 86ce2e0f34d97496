package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class TemplateTest {

    private static final Template.Context CTX = new Template.Context(
            Map.of("a", "Hello World", "n", "42", "f", "2.5", "empty", "", "ip", "10.0.0.1"), "the line", 1_700_000_000_123_000_000L);

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("plain", "plain"),
                Arguments.of("{{ range $k, $v := . }}{{ $k }}={{ $v }};{{ end }}",
                        "a=Hello World;empty=;f=2.5;ip=10.0.0.1;n=42;"),
                Arguments.of("{{ range $k, $v := . }}{{ if eq $k \"f\" }}{{ break }}{{ end }}{{ $k }} {{ end }}",
                        "a empty "),
                Arguments.of("{{ range $k, $v := . }}{{ if not $v }}{{ continue }}{{ end }}{{ $k }} {{ end }}",
                        "a f ip n "),
                Arguments.of("{{ range 3 }}{{ . }}{{ end }}", "012"),
                Arguments.of("{{ range 0 }}x{{ else }}none{{ end }}", "none"),
                Arguments.of("{{ with .a }}<{{ . }}>{{ end }}", "<Hello World>"),
                Arguments.of("{{ with .empty }}x{{ else with .n }}n={{ . }}{{ else }}y{{ end }}", "n=42"),
                Arguments.of("{{ with .empty }}x{{ else }}y{{ end }}", "y"),
                Arguments.of("{{ $x := .n }}{{ with .a }}{{ $x }} {{ $.f }}{{ end }}", "42 2.5"),
                Arguments.of("{{.a}}", "Hello World"),
                Arguments.of("{{ .missing }}", ""),
                Arguments.of("{{ .a | ToUpper }}", "HELLO WORLD"),
                Arguments.of("{{ ToLower .a }}", "hello world"),
                Arguments.of("{{ .a | lower | upper }}", "HELLO WORLD"),
                Arguments.of("{{ Replace .a \"o\" \"0\" 1 }}", "Hell0 World"),
                Arguments.of("{{ Replace .a \"o\" \"0\" -1 }}", "Hell0 W0rld"),
                Arguments.of("{{ .a | replace \"World\" \"There\" }}", "Hello There"),
                Arguments.of("{{ Trim .a \"Hd\" }}", "ello Worl"),
                Arguments.of("{{ TrimSpace \"  x  \" }}", "x"),
                Arguments.of("{{ TrimPrefix .a \"Hello \" }}", "World"),
                Arguments.of("{{ .a | trimSuffix \"World\" }}", "Hello "),
                Arguments.of("{{ default \"d\" .empty }}", "d"),
                Arguments.of("{{ .empty | default \"d\" }}", "d"),
                Arguments.of("{{ default \"d\" .a }}", "Hello World"),
                Arguments.of("{{ default \"d\" }}|{{ default 5 0 }}|{{ 0 | default 7 }}", "d|5|7"),
                // label values are strings: %f of one is Go's bad verb, its value printed with the verb's precision
                Arguments.of("{{ printf \"%s=%d (%.1f) %q %v%%\" .a 7 .f \"q\" true }}", "Hello World=7 (%!f(string=2)) \"q\" true%"),
                Arguments.of("{{ printf \"%d|%5.2f|%-4s|%04d|%.3d|%05s|%x|%+d\" 42 2.5 \"ab\" 7 7 \"ab\" \"hi\" 3 }}",
                        "42| 2.50|ab  |0007|007|000ab|6869|+3"),
                Arguments.of("{{ printf \"%d|%s|%f|%t|%d|%05.1f\" .n 42 7 \"x\" 2.5 .empty }}",
                        "%!d(string=42)|%!s(int=42)|%!f(int=7)|%!t(string=x)|%!d(float64=2.5)|%!f(string=00000)"),
                Arguments.of("{{ printf \"%5s|%-3s|\" \"ab\" \"c\" }}", "   ab|c  |"),
                Arguments.of("{{ __line__ }}", "the line"),
                Arguments.of("{{ __line__ | len }}", "8"),
                Arguments.of("{{ __timestamp__ | unixEpoch }}", "1700000000"),
                Arguments.of("{{ __timestamp__ | unixEpochMillis }}", "1700000000123"),
                Arguments.of("{{ __timestamp__ | date \"2006-01-02T15:04:05.000Z07:00\" }}", "2023-11-14T22:13:20.123Z"),
                Arguments.of("{{ __timestamp__ }}", "2023-11-14 22:13:20.123 +0000 UTC"),
                Arguments.of("{{ __timestamp__ | date \"Jan _2 3:04PM\" }}|{{ 1700000000 | date \"2006-01-02\" }}",
                        "Nov 14 10:13PM|2023-11-14"),
                // toDate and toDateInZone parse as Go's time.ParseInLocation; text that does not parse is Go's zero time
                Arguments.of("{{ toDateInZone \"2006-01-02 15:04:05\" \"Europe/Paris\" \"2024-07-01 12:00:00\" }}",
                        "2024-07-01 12:00:00 +0200 CEST"),
                Arguments.of("{{ toDateInZone \"2006-01-02\" \"Nowhere/Else\" \"2024-07-01\" | unixEpoch }}|"
                        + "{{ toDate \"2006-01-02\" \"2024-07-01\" | unixEpoch }}|{{ toDate \"2006-01-02\" \"nope\" }}",
                        "1719792000|1719792000|0001-01-01 00:00:00 +0000 UTC"),
                Arguments.of("{{ if eq .n \"42\" }}yes{{ else }}no{{ end }}", "yes"),
                Arguments.of("{{ if .empty }}yes{{ else if .a }}elif{{ else }}no{{ end }}", "elif"),
                Arguments.of("{{ if and .a .empty }}1{{ else }}0{{ end }}", "0"),
                Arguments.of("{{ if or .empty .a }}1{{ end }}", "1"),
                Arguments.of("{{ if not .empty }}1{{ end }}", "1"),
                Arguments.of("{{ if gt (int .n) 40 }}big{{ end }}", "big"),
                Arguments.of("{{ add (int .n) 8 }}", "50"),
                // strings as sprig converts them (spf13/cast): integers as Go's ParseInt(s, 0, 0) after a zero fraction
                // is cut, floats as Go's ParseFloat, untrimmed; anything else is 0
                Arguments.of("{{ add \"2.5\" 1 }}|{{ add \"12.00\" 1 }}|{{ add \"0x10\" \"010\" \"1_000\" }}|{{ int \" 7\" }}",
                        "1|13|1024|0"),
                Arguments.of("{{ addf \" 2.5\" 1 }}|{{ addf \"2.5f\" 1 }}|{{ addf \"1_000.5\" 0 }}|{{ float64 \"0x1p4\" }}",
                        "1|1|1000.5|16"),
                Arguments.of("{{ sub 10 3 }}|{{ mul 2 3 }}|{{ div 7 2 }}|{{ mod 7 2 }}", "7|6|3|1"),
                Arguments.of("{{ addf .f 0.25 }}|{{ mulf .f 2 }}|{{ divf 1 4 }}", "2.75|5|0.25"),
                Arguments.of("{{ round 2.567 2 }}|{{ ceil 1.2 }}|{{ floor 1.8 }}", "2.57|2|1"),
                Arguments.of("{{ regexReplaceAll \"o(.)\" .a \"0$1\" }}", "Hell0 W0rld"),
                Arguments.of("{{ regexReplaceAllLiteral \"o\" .a \"$\" }}", "Hell$ W$rld"),
                // Go's Expand: $1x names the group 1x (none: nothing), ${1}x is group 1 then x, $$ a dollar, $ before
                // no name itself; Go's ReplaceAll leaves an empty match right after a match alone
                Arguments.of("{{ regexReplaceAll \"(a)\" \"xa\" \"$1x\" }}|{{ regexReplaceAll \"(a)\" \"xa\" \"${1}x\" }}|"
                        + "{{ regexReplaceAll \"a\" \"xa\" \"$$\" }}|{{ regexReplaceAll \"(?P<w>o)\" \"foo\" \"<$w>\" }}|"
                        + "{{ regexReplaceAll \"a*\" \"baaac\" \"-\" }}|{{ regexReplaceAll \"a\" \"xa\" \"${\" }}|"
                        + "{{ regexReplaceAllLiteral \"a*\" \"baaac\" \"$1\" }}",
                        "x|xax|x$|f<o><o>|-b-c-|x${|$1b$1c$1"),
                Arguments.of("{{ count \"o\" .a }}", "2"),
                Arguments.of("{{ substr 0 5 .a }}|{{ trunc 3 .a }}|{{ trunc -3 .a }}", "Hello|Hel|rld"),
                Arguments.of("{{ substr 1 3 \"\uD83D\uDE00ab\uD83D\uDE01\" }}|{{ trunc 2 \"\uD83D\uDE00ab\" }}|{{ trunc -1 \"ab\uD83D\uDE01\" }}|{{ substr -1 -1 \"ab\" }}|{{ substr 5 9 \"ab\" }}",
                        "ab|\uD83D\uDE00a|\uD83D\uDE01||"),
                Arguments.of("{{ contains \"World\" .a }}|{{ hasPrefix \"He\" .a }}|{{ hasSuffix \"x\" .a }}", "true|true|false"),
                Arguments.of("{{ repeat 3 \"ab\" }}", "ababab"),
                Arguments.of("{{ .a | b64enc }}|{{ \"SGk=\" | b64dec }}", "SGVsbG8gV29ybGQ=|Hi"),
                // sprig's b64dec is Go's StdEncoding: padding required, line breaks skipped, Go's error as the result
                Arguments.of("{{ b64dec \"SG\\nk=\" }}|{{ b64dec \"SG=\\n=\" }}|{{ b64dec \"SGk\" }}|{{ b64dec \"SG!k\" }}|"
                        + "{{ b64dec \"SGk=x\" }}|{{ b64dec \"S===\" }}|{{ b64dec \"\" }}",
                        "Hi|H|illegal base64 data at input byte 0|illegal base64 data at input byte 2|"
                        + "illegal base64 data at input byte 4|illegal base64 data at input byte 1|"),
                // Go's text/template built-ins: Sprint's spacing (none next to a string), escapers, index and slice by bytes
                Arguments.of("{{ print 1 2 \"x\" 3 true }}|{{ println .n 7 }}|", "1 2x3 true|42 7\n|"),
                Arguments.of("{{ html \"<a href='x'>&\\\"\" }}|{{ js \"it's <b>=\\n\" }}|{{ urlquery \"a b*~/é\" }}",
                        "&lt;a href=&#39;x&#39;&gt;&amp;&#34;|it\\'s \\u003Cb\\u003E\\u003D\\u000A|a+b%2A~%2F%C3%A9"),
                Arguments.of("{{ index . \"ip\" }}|{{ index . \"none\" }}|{{ index .a 1 }}|{{ slice .a 6 }}|{{ slice .a 0 5 }}|{{ \"é\" | len }}",
                        "10.0.0.1||101|World|Hello|2"),
                Arguments.of("{{ urlencode \"a*b~c d\" }}|{{ urldecode \"a%2Ab~c+d%C3%A9\" }}", "a%2Ab~c+d|a*b~c dé"),
                Arguments.of("{{ \"1h30m\" | duration }}|{{ duration_seconds \"250ms\" }}|{{ \"1.5 KiB\" | bytes }}",
                        "5400|0.25|1536"),
                // a float64 prints as Go prints it: the exponent form from 1e+06 on
                Arguments.of("{{ \"20MB\" | bytes }}|{{ mulf 1000 1000 }}|{{ divf 1 100000 }}|{{ addf 999999 0 }}",
                        "2e+07|1e+06|1e-05|999999"),
                Arguments.of("{{ urlencode \"a b&c\" }}", "a+b%26c"),
                Arguments.of("{{ alignLeft 3 \"abcdef\" }}|{{ alignRight 5 \"ab\" }}", "abc|   ab"),
                // as Loki's: a negative count keeps the text, counts are of characters (code points), not UTF-16 units
                Arguments.of("{{ alignLeft -1 \"abc\" }}|{{ alignRight -2 \"abc\" }}|{{ alignRight 2 \"abc\" }}",
                        "abc|abc|bc"),
                Arguments.of("{{ alignLeft 2 \"\uD83D\uDE00\uD83D\uDE01x\" }}|{{ alignRight 3 \"\uD83D\uDE00\" }}|",
                        "\uD83D\uDE00\uD83D\uDE01|  \uD83D\uDE00|"),
                // an epoch told apart by its digits: days, seconds, milliseconds, microseconds, nanoseconds
                Arguments.of("{{ unixToTime \"19373\" | unixEpoch }}|{{ unixToTime \"1673798889\" | unixEpoch }}|"
                        + "{{ unixToTime \"1673798889902\" | unixEpochMillis }}|"
                        + "{{ unixToTime \"1673798889902003\" | unixEpochNanos }}|"
                        + "{{ unixToTime \"1673798889902003004\" | unixEpochNanos }}",
                        "1673827200|1673798889|1673798889902|1673798889902003000|1673798889902003004"),
                Arguments.of("{{ title \"hello world\" }}", "Hello World"),
                // Go's strings.Title: every ASCII character but letters, digits and _ starts a word, an apostrophe too
                Arguments.of("{{ title \"don't stop-now \u00e9_x\" }}", "Don'T Stop-Now \u00c9_x"),
                Arguments.of("a  {{- .n -}}  b", "a42b"),
                Arguments.of("{{/* comment */}}x", "x"),
                Arguments.of("{{ `raw` }}", "raw"));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void execute(String template, String expected) {
        assertThat(Template.parse(template).execute(CTX)).isEqualTo(expected);
    }

    @Test
    void parse_errorsNameTheTemplate() {
        assertThatThrownBy(() -> Template.parse("{{ .a ")).hasMessageContaining("unclosed action");
        assertThatThrownBy(() -> Template.parse("{{ nope .a }}")).hasMessageContaining("function \"nope\" not defined");
        assertThatThrownBy(() -> Template.parse("{{ end }}")).hasMessageContaining("unexpected {{end}}");
        assertThatThrownBy(() -> Template.parse("{{ define \"x\" }}{{ end }}")).hasMessageContaining("not supported");
    }

    @Test
    void now_isTheCurrentTime() {
        long before = java.time.Instant.now().getEpochSecond();
        long now = Long.parseLong(Template.parse("{{ now | unixEpoch }}").execute(CTX));
        assertThat(now).isBetween(before, java.time.Instant.now().getEpochSecond());
    }

    @Test
    void execute_runtimeErrorsThrow() {
        assertThatThrownBy(() -> Template.parse("{{ div 1 0 }}").execute(CTX)).hasMessageContaining("divide by zero");
        assertThatThrownBy(() -> Template.parse("{{ ToUpper }}").execute(CTX)).hasMessageContaining("wrong number of args");
        // Go's parsers, as Loki's convertDuration and convertBytes: no days, no leading space
        assertThatThrownBy(() -> Template.parse("{{ duration \"1d\" }}").execute(CTX))
                .hasMessage("error calling duration: time: unknown unit \"d\" in duration \"1d\"");
        assertThatThrownBy(() -> Template.parse("{{ urldecode \"100%zz\" }}").execute(CTX))
                .hasMessage("error calling urldecode: invalid URL escape \"%zz\"");
        assertThatThrownBy(() -> Template.parse("{{ urldecode \"ab%4\" }}").execute(CTX))
                .hasMessage("error calling urldecode: invalid URL escape \"%4\"");
        assertThatThrownBy(() -> Template.parse("{{ index .a 99 }}").execute(CTX))
                .hasMessage("error calling index: index out of range: 99");
        assertThatThrownBy(() -> Template.parse("{{ slice .a 1 2 3 }}").execute(CTX))
                .hasMessage("error calling slice: cannot 3-index slice a string");
        assertThatThrownBy(() -> Template.parse("{{ unixToTime \"12ab\" }}").execute(CTX)).hasMessage(
                "error calling unixToTime: unable to parse time '12ab': strconv.ParseInt: parsing \"12ab\": invalid syntax");
        assertThatThrownBy(() -> Template.parse("{{ unixToTime \"1234\" }}").execute(CTX))
                .hasMessage("error calling unixToTime: unable to parse time '1234': %!w(<nil>)");
        assertThatThrownBy(() -> Template.parse("{{ bytes \" 5MB\" }}").execute(CTX))
                .hasMessage("error calling bytes: strconv.ParseFloat: parsing \"\": invalid syntax");
    }

    /** Found by HostileInputFuzzTest: "==" and a lone ':' made the lexer add empty tokens until the heap ran out. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"{{ __li1 == bool 1ne__ | lower }}", "{{ .a == .b }}",
            "{{ .a : .b }}", "{{ : }}", "{{ .a ==}}"})
    void strayOperatorCharacters_areSyntaxErrors_notAnEndlessLexer(String text) {
        assertThatThrownBy(() -> Template.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid template").hasMessageContaining("unexpected");
    }
}
