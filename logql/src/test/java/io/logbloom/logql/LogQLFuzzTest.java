package io.logbloom.logql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Mutated valid queries either parse (and round-trip) or fail with a positioned LogQLParseException only. */
final class LogQLFuzzTest {

    private static final String[] INSERTS = {"(", ")", "{", "}", "[", "]", "|", "=", "\"", "`", ",", " or ", " and ",
        " by ", "5m", "1", "-", "|=", "!~", "json", "unwrap", "\\", "{{", "}}", "<_>", "#", "offset", "bool", "on()", "x"};

    @Test
    void mutatedQueries_failOnlyWithParseErrors() throws IOException {
        List<String> seeds = LogQLParseTest.resource("valid-queries.txt");
        Random r = new Random(2024);
        int parsed = 0;
        int rejected = 0;
        for (int i = 0; i < 3000; i++) {
            StringBuilder q = new StringBuilder(seeds.get(r.nextInt(seeds.size())));
            int edits = 1 + r.nextInt(3);
            for (int e = 0; e < edits && q.length() > 0; e++) {
                int pos = r.nextInt(q.length());
                switch (r.nextInt(3)) {
                    case 0 -> q.deleteCharAt(pos);
                    case 1 -> q.insert(pos, INSERTS[r.nextInt(INSERTS.length)]);
                    default -> q.setCharAt(pos, (char) (' ' + r.nextInt(95)));
                }
            }
            String query = q.toString();
            Expr expr;
            try {
                expr = LogQL.parse(query);
            } catch (LogQLParseException e) {
                // a syntax error is positioned; a semantic one is not (line and column 0), as Loki's
                if (e.line() == 0) {
                    assertThat(e.column()).isZero();
                    assertThat(e.getMessage()).startsWith("parse error : ");
                } else {
                    assertThat(e.line()).isPositive();
                    assertThat(e.column()).isPositive();
                    assertThat(e.getMessage()).startsWith("parse error at line ");
                }
                rejected++;
                continue;
            }
            parsed++;
            assertThat(LogQL.parse(LogQL.format(expr))).as(query).isEqualTo(expr);
        }
        assertThat(parsed).isPositive();
        assertThat(rejected).isPositive();
    }
}
