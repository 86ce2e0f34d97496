package io.logbloom.logql;

import java.math.BigDecimal;

/** Sample value formatting as Loki prints it (Go's strconv.FormatFloat(v, 'f', -1, 64)). Stateless. */
public final class Values {

    private Values() {
    }

    /** Formats like Go's FormatFloat(v,'f',-1,64): {@code 2}, {@code 0.5}, {@code NaN}, {@code +Inf}, {@code -Inf}. */
    public static String formatValue(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == 0) {
            return (1 / v) < 0 ? "-0" : "0";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String plain = new BigDecimal(Double.toString(v)).toPlainString();
        if (plain.indexOf('.') >= 0) {
            int end = plain.length();
            while (plain.charAt(end - 1) == '0') {
                end--;
            }
            if (plain.charAt(end - 1) == '.') {
                end--;
            }
            plain = plain.substring(0, end);
        }
        return plain;
    }
}
