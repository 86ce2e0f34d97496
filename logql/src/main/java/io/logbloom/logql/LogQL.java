package io.logbloom.logql;

import io.logbloom.logql.SampleExpr.*;
import java.util.ArrayList;
import java.util.List;
import org.antlr.v4.runtime.BaseErrorListener;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.RecognitionException;
import org.antlr.v4.runtime.Recognizer;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.atn.PredictionMode;

/**
 * Entry point of the module: {@link #parse} a query into the AST, {@link #format} it back, list the
 * {@link #logExprs log expressions} a query reads. Stateless and thread-safe.
 */
public final class LogQL {

    private LogQL() {
    }

    /** Parses and validates a query; throws {@link LogQLParseException} with Loki-like positioned messages. */
    public static Expr parse(String query) throws LogQLParseException {
        if (query == null || query.isBlank()) {
            throw new LogQLParseException(1, 1, "syntax error: unexpected $end");
        }
        LogQLParser.RootContext root;
        try {
            root = parser(query, PredictionMode.SLL).root();
        } catch (LogQLParseException e) {
            // SLL prediction can fail on valid input; full LL decides and reports the real error position
            root = parser(query, PredictionMode.LL).root();
        }
        return new AstBuilder().root(root);
    }

    private static LogQLParser parser(String query, PredictionMode mode) {
        ThrowingListener listener = new ThrowingListener();
        LogQLLexer lexer = new LogQLLexer(CharStreams.fromString(query));
        lexer.removeErrorListeners();
        lexer.addErrorListener(listener);
        LogQLParser parser = new LogQLParser(new CommonTokenStream(lexer));
        parser.removeErrorListeners();
        parser.addErrorListener(listener);
        parser.getInterpreter().setPredictionMode(mode);
        return parser;
    }

    /** Prints the canonical form of a query; {@code parse(format(e))} equals {@code e}. */
    public static String format(Expr e) {
        return Printer.print(e);
    }

    /**
     * Builds every pipeline of a query once, so a stage that cannot be built (a bad regex or template, a
     * pattern line filter with named captures) fails as Loki's stage error before any data is read; throws
     * IllegalArgumentException with Loki's wording.
     */
    public static void checkPipelines(Expr e) {
        for (LogExpr log : logExprs(e)) {
            Pipeline.compile(log.stages());
        }
    }

    /** Every log expression (selector + pipeline) a query reads, in query order. */
    public static List<LogExpr> logExprs(Expr e) {
        List<LogExpr> out = new ArrayList<>();
        collect(e, out);
        return out;
    }

    /** Every stream selector a query reads, in query order. */
    public static List<List<Matcher>> selectors(Expr e) {
        List<List<Matcher>> out = new ArrayList<>();
        for (LogExpr l : logExprs(e)) {
            out.add(l.selector());
        }
        return out;
    }

    private static void collect(Expr e, List<LogExpr> out) {
        if (e instanceof LogExpr l) {
            out.add(l);
        } else if (e instanceof RangeAggregation r) {
            out.add(r.range().log());
        } else if (e instanceof VectorAggregation v) {
            collect(v.inner(), out);
        } else if (e instanceof Binary b) {
            collect(b.lhs(), out);
            collect(b.rhs(), out);
        } else if (e instanceof LabelReplace r) {
            collect(r.inner(), out);
        }
    }

    /** Turns the first lexer or parser error into a LogQLParseException. */
    private static final class ThrowingListener extends BaseErrorListener {
        @Override
        public void syntaxError(Recognizer<?, ?> recognizer, Object offendingSymbol, int line, int charPositionInLine,
                String msg, RecognitionException e) {
            String detail;
            if (offendingSymbol instanceof Token t) {
                // only a mismatch knows its expected tokens for sure; a failed prediction would list misleading ones
                detail = "syntax error: unexpected " + describe(t)
                        + (e instanceof org.antlr.v4.runtime.InputMismatchException ? expecting(recognizer) : "");
            } else {
                detail = "syntax error: " + msg.replace("token recognition error at: ", "unexpected character ");
            }
            throw new LogQLParseException(line, charPositionInLine + 1, detail);
        }

        /** Loki/goyacc style ", expecting A or B" when the parser knows a short list of expected tokens. */
        private static String expecting(Recognizer<?, ?> recognizer) {
            if (!(recognizer instanceof LogQLParser p)) {
                return "";
            }
            org.antlr.v4.runtime.misc.IntervalSet expected;
            try {
                expected = p.getExpectedTokens();
            } catch (IllegalArgumentException | IllegalStateException e) {
                return "";
            }
            List<Integer> types = new ArrayList<>(expected.toList());
            if (types.contains(LogQLLexer.IDENTIFIER)) {
                // keywords are accepted where a label name is: Loki's grammar knows them only as IDENTIFIER there
                types.removeIf(ThrowingListener::keyword);
            }
            if (types.isEmpty() || types.size() > 4) {
                return "";
            }
            List<String> names = new ArrayList<>();
            for (int type : types) {
                names.add(type == Token.EOF ? "$end" : name(type));
            }
            return ", expecting " + String.join(" or ", names);
        }

        private static String name(int type) {
            return switch (type) {
                case LogQLLexer.IDENTIFIER -> "IDENTIFIER";
                case LogQLLexer.STRING -> "STRING";
                case LogQLLexer.NUMBER -> "NUMBER";
                case LogQLLexer.DURATION -> "DURATION";
                case LogQLLexer.BYTES -> "BYTES";
                default -> {
                    if (keyword(type)) {
                        yield lokiName(type);
                    }
                    String literal = LogQLLexer.VOCABULARY.getLiteralName(type);
                    yield literal != null ? literal.replace("'", "") : LogQLLexer.VOCABULARY.getSymbolicName(type);
                }
            };
        }

        private static String describe(Token t) {
            return switch (t.getType()) {
                case Token.EOF -> "$end";
                case LogQLLexer.IDENTIFIER -> "IDENTIFIER";
                case LogQLLexer.STRING -> "STRING";
                case LogQLLexer.NUMBER -> "NUMBER";
                case LogQLLexer.DURATION -> "DURATION";
                case LogQLLexer.BYTES -> "BYTES";
                default -> keyword(t.getType()) ? lokiName(t.getType()) : t.getText();
            };
        }

        /** True for word tokens (sum, json, by...): Loki names them by their token name. */
        private static boolean keyword(int type) {
            String literal = LogQLLexer.VOCABULARY.getLiteralName(type);
            return literal != null && literal.matches("'[a-z_]+'");
        }

        private static String lokiName(int type) {
            return switch (type) {
                case LogQLLexer.LINE_FORMAT -> "LINE_FMT";
                case LogQLLexer.LABEL_FORMAT -> "LABEL_FMT";
                case LogQLLexer.IP -> "ip"; // Loki's grammar spells this one token in lower case
                default -> LogQLLexer.VOCABULARY.getSymbolicName(type);
            };
        }
    }
}
