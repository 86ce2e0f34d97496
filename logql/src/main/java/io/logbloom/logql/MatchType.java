package io.logbloom.logql;

/** Operator of a label matcher; immutable and thread-safe. */
public enum MatchType {
    EQUAL("="),
    NOT_EQUAL("!="),
    REGEX("=~"),
    NOT_REGEX("!~");

    private final String symbol;

    MatchType(String symbol) {
        this.symbol = symbol;
    }

    /** The operator as written in LogQL, e.g. {@code =~}. */
    public String symbol() {
        return symbol;
    }

    /** The match type for a LogQL operator symbol. */
    public static MatchType ofSymbol(String symbol) {
        for (MatchType t : values()) {
            if (t.symbol.equals(symbol)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown match operator: " + symbol);
    }
}
