package io.logbloom.logql;

/**
 * A syntax or validation error in a LogQL query, positioned like Loki's
 * {@code parse error at line 1, col 15: syntax error: unexpected IDENTIFIER}; a semantic error has no
 * position (line and column 0) and reads {@code parse error : grouping not allowed ...}, as Loki's. Immutable.
 */
public final class LogQLParseException extends RuntimeException {

    private final int line;
    private final int column;
    private final String detail;

    /** Creates an error at a 1-based line and column. */
    public LogQLParseException(int line, int column, String detail) {
        super(line == 0 && column == 0 ? "parse error : " + detail
                : "parse error at line " + line + ", col " + column + ": " + detail);
        this.line = line;
        this.column = column;
        this.detail = detail;
    }

    /** Creates an error at a position, chaining its cause. */
    public LogQLParseException(int line, int column, String detail, Throwable cause) {
        this(line, column, detail);
        initCause(cause);
    }

    /** 1-based line of the error. */
    public int line() {
        return line;
    }

    /** 1-based column of the error. */
    public int column() {
        return column;
    }

    /** The message without the position prefix. */
    public String detail() {
        return detail;
    }
}
