package io.logbloom.logql;

import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * Matches IP addresses against Loki's {@code ip("...")} patterns: a single address, a CIDR
 * ({@code 10.0.0.0/8}, {@code ::1/128}) or an inclusive range ({@code 10.0.0.1-10.0.0.9}). Addresses are
 * parsed without DNS. Immutable and thread-safe.
 */
final class IpMatcher {

    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

    private final BigInteger low;
    private final BigInteger high;
    private final boolean v6;

    private IpMatcher(BigInteger low, BigInteger high, boolean v6) {
        this.low = low;
        this.high = high;
        this.v6 = v6;
    }

    /** Parses a pattern; throws IllegalArgumentException naming the pattern when invalid. */
    static IpMatcher parse(String pattern) {
        String p = pattern.trim();
        try {
            int slash = p.indexOf('/');
            if (slash >= 0) {
                byte[] addr = address(p.substring(0, slash));
                int bits = Integer.parseInt(p.substring(slash + 1));
                int total = addr.length * 8;
                if (bits < 0 || bits > total) {
                    throw new IllegalArgumentException("prefix length out of range");
                }
                BigInteger a = new BigInteger(1, addr);
                BigInteger hostMask = BigInteger.ONE.shiftLeft(total - bits).subtract(BigInteger.ONE);
                BigInteger lo = a.andNot(hostMask);
                return new IpMatcher(lo, lo.or(hostMask), addr.length == 16);
            }
            int dash = p.indexOf('-');
            if (dash >= 0) {
                byte[] a = address(p.substring(0, dash));
                byte[] b = address(p.substring(dash + 1));
                if (a.length != b.length) {
                    throw new IllegalArgumentException("range mixes IPv4 and IPv6");
                }
                BigInteger lo = new BigInteger(1, a);
                BigInteger hi = new BigInteger(1, b);
                if (lo.compareTo(hi) > 0) {
                    throw new IllegalArgumentException("range start is after its end");
                }
                return new IpMatcher(lo, hi, a.length == 16);
            }
            byte[] a = address(p);
            BigInteger v = new BigInteger(1, a);
            return new IpMatcher(v, v, a.length == 16);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid ip pattern " + GoStrings.quote(pattern) + ": " + e.getMessage(), e);
        }
    }

    /** True when the text is an address inside this pattern. */
    boolean matches(String text) {
        byte[] a;
        try {
            a = address(text.trim());
        } catch (IllegalArgumentException e) {
            return false;
        }
        if ((a.length == 16) != v6) {
            return false;
        }
        BigInteger v = new BigInteger(1, a);
        return v.compareTo(low) >= 0 && v.compareTo(high) <= 0;
    }

    /** True when any IP-looking token of the line lies inside this pattern. */
    boolean matchesAnyIn(String line) {
        int n = line.length();
        int i = 0;
        while (i < n) {
            char c = line.charAt(i);
            if (isIpChar(c)) {
                int start = i;
                while (i < n && isIpChar(line.charAt(i))) {
                    i++;
                }
                String token = line.substring(start, i);
                if ((token.indexOf('.') >= 0 || token.indexOf(':') >= 0) && matches(trimPunctuation(token))) {
                    return true;
                }
            } else {
                i++;
            }
        }
        return false;
    }

    private static String trimPunctuation(String t) {
        int s = 0;
        int e = t.length();
        while (s < e && (t.charAt(s) == '.' || t.charAt(s) == ':' && !t.startsWith("::", s))) {
            s++;
        }
        while (e > s && (t.charAt(e - 1) == '.' || t.charAt(e - 1) == ':' && !t.startsWith("::", e - 2))) {
            e--;
        }
        return t.substring(s, e);
    }

    private static boolean isIpChar(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '.' || c == ':';
    }

    static byte[] address(String s) {
        java.util.regex.Matcher m = IPV4.matcher(s);
        if (m.matches()) {
            byte[] out = new byte[4];
            for (int i = 0; i < 4; i++) {
                int octet = Integer.parseInt(m.group(i + 1));
                if (octet > 255) {
                    throw new IllegalArgumentException("octet out of range in " + s);
                }
                out[i] = (byte) octet;
            }
            return out;
        }
        if (s.indexOf(':') >= 0 && s.chars().allMatch(ch -> isIpChar((char) ch))) {
            return ipv6(s);
        }
        throw new IllegalArgumentException("not an IP address: " + s);
    }

    private static byte[] ipv6(String s) {
        int dbl = s.indexOf("::");
        if (dbl != s.lastIndexOf("::")) {
            throw new IllegalArgumentException("not an IP address: " + s);
        }
        String[] head;
        String[] tail;
        if (dbl >= 0) {
            String h = s.substring(0, dbl);
            String t = s.substring(dbl + 2);
            head = h.isEmpty() ? new String[0] : h.split(":", -1);
            tail = t.isEmpty() ? new String[0] : t.split(":", -1);
        } else {
            head = s.split(":", -1);
            tail = new String[0];
            if (head.length != 8) {
                throw new IllegalArgumentException("not an IP address: " + s);
            }
        }
        if (head.length + tail.length > (dbl >= 0 ? 7 : 8)) {
            throw new IllegalArgumentException("not an IP address: " + s);
        }
        byte[] out = new byte[16];
        fill(out, 0, head, s);
        fill(out, 16 - tail.length * 2, tail, s);
        return out;
    }

    private static void fill(byte[] out, int offset, String[] groups, String s) {
        for (int i = 0; i < groups.length; i++) {
            String g = groups[i];
            if (g.isEmpty() || g.length() > 4 || g.indexOf('.') >= 0) {
                throw new IllegalArgumentException("not an IP address: " + s);
            }
            int v = Integer.parseInt(g, 16);
            out[offset + 2 * i] = (byte) (v >> 8);
            out[offset + 2 * i + 1] = (byte) v;
        }
    }
}
