package io.logbloom.logql;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The subset of Go's text/template used by {@code line_format} and {@code label_format}: text, actions
 * {@code {{ .label }}} with pipelines ({@code {{ .a | ToUpper }}}), function calls with string/number/field
 * arguments, parenthesised sub-pipelines, {@code if / else if / else / end}, {@code range} (over the label
 * map in key order, a list or a count, with {@code $k, $v :=}, {@code break}, {@code continue} and
 * {@code else}), {@code with / else with / else / end}, variables ({@code $}, {@code $x := ...}, {@code $x =
 * ...}), trim markers {@code {{- -}}}, {@code __line__} and {@code __timestamp__}. The data is the label map,
 * as in Loki; a missing label renders as the empty string. Functions: Loki's and sprig's common string, regex, math and comparison helpers (see
 * {@link #call}). Immutable and thread-safe after parsing.
 */
final class Template {

    /** Data an execution reads. */
    record Context(Map<String, String> labels, String line, long timestampNanos) {
    }

    private sealed interface Node permits Text, Action, If, Range, With, Loop {
    }

    private record Text(String text) implements Node {
    }

    private record Action(Pipe pipe) implements Node {
    }

    private record If(Pipe condition, List<Node> then, List<Node> otherwise) implements Node {
    }

    /** {@code range}: the body runs once per element; the pipe's declared variables receive (key, value) or (value). */
    private record Range(Pipe pipe, List<Node> body, List<Node> otherwise) implements Node {
    }

    /** {@code with}: the body runs with dot set to the value when it is truthy. */
    private record With(Pipe pipe, List<Node> body, List<Node> otherwise) implements Node {
    }

    /** {@code break} (true) or {@code continue} (false) inside a range. */
    private record Loop(boolean breaks) implements Node {
    }

    /** A pipeline; {@code declare} lists the variables it assigns ({@code $x := ...}); {@code define} tells := from =. */
    private record Pipe(List<String> variables, boolean define, List<Command> commands) {
    }

    private record Variable(String name, List<String> fields) {
    }

    private record Dot() {
    }

    /** Thrown to leave a range iteration early. */
    private static final class LoopSignal extends RuntimeException {
        private final boolean breaks;

        LoopSignal(boolean breaks) {
            super(null, null, false, false);
            this.breaks = breaks;
        }
    }

    /** Dot and variables of one execution; variables are copied when entering a block, as Go scopes them. */
    private static final class Scope {
        private final Object dot;
        private final Map<String, Object> variables;

        Scope(Object dot, Map<String, Object> variables) {
            this.dot = dot;
            this.variables = variables;
        }

        Scope with(Object newDot) {
            return new Scope(newDot, new java.util.HashMap<>(variables));
        }
    }

    /** A command is a function with arguments or a lone operand (function null, one arg). */
    private record Command(String function, List<Object> args) {
    }

    private record Field(String name) {
    }

    private final List<Node> nodes;

    private Template(List<Node> nodes) {
        this.nodes = nodes;
    }

    /** Parses a template; throws IllegalArgumentException naming the template on syntax errors. */
    static Template parse(String text) {
        try {
            Parser p = new Parser(text);
            List<Node> nodes = p.nodes(false);
            if (p.pendingEnd != null) {
                throw new IllegalArgumentException("unexpected {{" + p.pendingEnd + "}}");
            }
            return new Template(nodes);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid template " + GoStrings.quote(text) + ": " + e.getMessage(), e);
        }
    }

    /** Renders the template; function errors propagate as IllegalArgumentException. */
    String execute(Context ctx) {
        StringBuilder sb = new StringBuilder();
        Map<String, Object> variables = new java.util.HashMap<>();
        variables.put("$", ctx.labels());
        render(nodes, ctx, new Scope(ctx.labels(), variables), sb);
        return sb.toString();
    }

    private void render(List<Node> list, Context ctx, Scope scope, StringBuilder sb) {
        for (Node n : list) {
            if (n instanceof Text t) {
                sb.append(t.text());
            } else if (n instanceof Action a) {
                Object v = eval(a.pipe(), ctx, scope);
                if (a.pipe().variables().isEmpty()) {
                    sb.append(print(v));
                }
            } else if (n instanceof If f) {
                Scope inner = scope.with(scope.dot);
                render(truthy(eval(f.condition(), ctx, inner)) ? f.then() : f.otherwise(), ctx, inner, sb);
            } else if (n instanceof With w) {
                Scope inner = scope.with(scope.dot);
                Object v = eval(w.pipe(), ctx, inner);
                if (truthy(v)) {
                    render(w.body(), ctx, inner.with(v), sb);
                } else {
                    render(w.otherwise(), ctx, inner, sb);
                }
            } else if (n instanceof Range r) {
                range(r, ctx, scope, sb);
            } else if (n instanceof Loop l) {
                throw new LoopSignal(l.breaks());
            }
        }
    }

    private void range(Range r, Context ctx, Scope scope, StringBuilder sb) {
        Scope outer = scope.with(scope.dot);
        Pipe p = r.pipe();
        Pipe bare = new Pipe(List.of(), false, p.commands());
        Object v = eval(bare, ctx, outer);
        List<Object[]> elements = new ArrayList<>();
        if (v instanceof Map<?, ?> m) {
            new java.util.TreeMap<>(m).forEach((k, e) -> elements.add(new Object[] {k, e}));
        } else if (v instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                elements.add(new Object[] {(long) i, l.get(i)});
            }
        } else if (v instanceof Long n) {
            for (long i = 0; i < n; i++) {
                elements.add(new Object[] {i, i});
            }
        } else if (v != null) {
            throw new IllegalArgumentException("range can't iterate over " + print(v));
        }
        if (elements.isEmpty()) {
            render(r.otherwise(), ctx, outer, sb);
            return;
        }
        for (Object[] e : elements) {
            Scope inner = outer.with(e[1]);
            if (p.variables().size() == 1) {
                inner.variables.put(p.variables().get(0), e[1]);
            } else if (p.variables().size() == 2) {
                inner.variables.put(p.variables().get(0), e[0]);
                inner.variables.put(p.variables().get(1), e[1]);
            }
            try {
                render(r.body(), ctx, inner, sb);
            } catch (LoopSignal signal) {
                if (signal.breaks) {
                    break;
                }
            }
        }
    }

    private Object eval(Pipe pipe, Context ctx, Scope scope) {
        Object prev = null;
        boolean first = true;
        for (Command c : pipe.commands()) {
            List<Object> args = new ArrayList<>();
            for (Object a : c.args()) {
                args.add(value(a, ctx, scope));
            }
            if (!first) {
                args.add(prev);
            }
            if (c.function() == null) {
                if (args.size() != 1) {
                    throw new IllegalArgumentException("can't give argument to non-function " + c.args().get(0));
                }
                prev = args.get(0);
            } else {
                prev = call(c.function(), args, ctx);
            }
            first = false;
        }
        for (String name : pipe.variables()) {
            if (!pipe.define() && !scope.variables.containsKey(name)) {
                throw new IllegalArgumentException("undefined variable: " + name);
            }
            scope.variables.put(name, prev);
        }
        return prev;
    }

    private Object value(Object operand, Context ctx, Scope scope) {
        if (operand instanceof Field f) {
            return field(scope.dot, f.name());
        }
        if (operand instanceof Dot) {
            return scope.dot;
        }
        if (operand instanceof Variable v) {
            if (!scope.variables.containsKey(v.name())) {
                throw new IllegalArgumentException("undefined variable: " + v.name());
            }
            Object value = scope.variables.get(v.name());
            for (String f : v.fields()) {
                value = field(value, f);
            }
            return value;
        }
        if (operand instanceof Pipe p) {
            return eval(p, ctx, scope.with(scope.dot));
        }
        return operand;
    }

    private static Object field(Object dot, String name) {
        if (dot instanceof Map<?, ?> m) {
            Object v = m.get(name);
            return v == null ? "" : v;
        }
        throw new IllegalArgumentException("can't evaluate field " + name + " in type " + typeName(dot));
    }

    /** The Go type a template value stands for: label values and text are strings, numbers int or float64. */
    static String typeName(Object v) {
        if (v instanceof String) {
            return "string";
        }
        if (v instanceof Long) {
            return "int";
        }
        if (v instanceof Double) {
            return "float64";
        }
        if (v instanceof Boolean) {
            return "bool";
        }
        if (v instanceof ZonedDateTime) {
            return "time.Time";
        }
        if (v instanceof Map) {
            return "map[string]string";
        }
        return v == null ? "<nil>" : v.getClass().getSimpleName();
    }

    static boolean truthy(Object v) {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof String s) {
            return !s.isEmpty();
        }
        if (v instanceof Double d) {
            return d != 0;
        }
        if (v instanceof Long l) {
            return l != 0;
        }
        return true;
    }

    static String print(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Double d) {
            return GoStrings.formatFloat(d); // a float64 as Go's templates print it: 1e+06, not 1000000
        }
        if (v instanceof ZonedDateTime t) {
            return GoTime.format(t);
        }
        if (v instanceof Map<?, ?> m) {
            StringBuilder sb = new StringBuilder("map[");
            new java.util.TreeMap<>(m).forEach((k, e) -> sb.append(sb.length() > 4 ? " " : "").append(k).append(':')
                    .append(print(e)));
            return sb.append(']').toString();
        }
        if (v instanceof List<?> l) {
            StringBuilder sb = new StringBuilder("[");
            for (Object e : l) {
                sb.append(sb.length() > 1 ? " " : "").append(print(e));
            }
            return sb.append(']').toString();
        }
        return v.toString();
    }

    private static String str(Object v) {
        return print(v);
    }

    /** A value as sprig's toFloat64 (spf13/cast) takes it: a string as Go's ParseFloat reads it, untrimmed, else 0. */
    private static double num(Object v) {
        if (v instanceof Double d) {
            return d;
        }
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        try {
            return GoStrings.parseFloat(str(v));
        } catch (IllegalArgumentException e) {
            return 0; // sprig's toFloat64 semantics: unparsable is zero
        }
    }

    /**
     * A value as sprig's toInt64 (spf13/cast) takes it: a float truncated; a string without a zero fraction
     * ({@code 12.00} is {@code 12}) read as Go's {@code strconv.ParseInt(s, 0, 0)} ({@code 0x1f}, {@code 0o17},
     * {@code 017} octal, {@code 1_000}), else 0 ({@code 2.5} too).
     */
    private static long integer(Object v) {
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof Double d) {
            return d.longValue();
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        try {
            return GoStrings.parseInt(trimZeroDecimal(str(v)), 0);
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    /** spf13/cast's trimZeroDecimal: {@code 12.00} becomes {@code 12}; anything else stays as it is. */
    private static String trimZeroDecimal(String s) {
        boolean zero = false;
        for (int i = s.length(); i > 0; i--) {
            char c = s.charAt(i - 1);
            if (c == '.') {
                if (zero) {
                    return s.substring(0, i - 1);
                }
            } else if (c == '0') {
                zero = true;
            } else {
                return s;
            }
        }
        return s;
    }

    private static void arity(String fn, List<Object> a, int n) {
        if (a.size() != n) {
            throw new IllegalArgumentException("wrong number of args for " + fn + ": want " + n + " got " + a.size());
        }
    }

    /** Calls a template function by name. */
    private static Object call(String fn, List<Object> a, Context ctx) {
        switch (fn) {
            case "__line__":
                arity(fn, a, 0);
                return ctx.line();
            case "__timestamp__":
                arity(fn, a, 0);
                return utc(Instant.ofEpochSecond(0, ctx.timestampNanos()));
            case "ToUpper", "upper", "toUpper":
                arity(fn, a, 1);
                return str(a.get(0)).toUpperCase(Locale.ROOT);
            case "ToLower", "lower", "toLower":
                arity(fn, a, 1);
                return str(a.get(0)).toLowerCase(Locale.ROOT);
            case "Title", "title":
                arity(fn, a, 1);
                return title(str(a.get(0)));
            case "Replace": {
                arity(fn, a, 4);
                return replace(str(a.get(0)), str(a.get(1)), str(a.get(2)), integer(a.get(3)));
            }
            case "replace":
                arity(fn, a, 3);
                return str(a.get(2)).replace(str(a.get(0)), str(a.get(1)));
            case "Trim":
                arity(fn, a, 2);
                return trimChars(str(a.get(0)), str(a.get(1)), true, true);
            case "TrimLeft":
                arity(fn, a, 2);
                return trimChars(str(a.get(0)), str(a.get(1)), true, false);
            case "TrimRight":
                arity(fn, a, 2);
                return trimChars(str(a.get(0)), str(a.get(1)), false, true);
            case "TrimSpace", "trim":
                arity(fn, a, 1);
                return str(a.get(0)).strip();
            case "TrimPrefix": {
                arity(fn, a, 2);
                String s = str(a.get(0));
                String p = str(a.get(1));
                return s.startsWith(p) ? s.substring(p.length()) : s;
            }
            case "TrimSuffix": {
                arity(fn, a, 2);
                String s = str(a.get(0));
                String p = str(a.get(1));
                return s.endsWith(p) ? s.substring(0, s.length() - p.length()) : s;
            }
            case "trimPrefix": {
                arity(fn, a, 2);
                String s = str(a.get(1));
                String p = str(a.get(0));
                return s.startsWith(p) ? s.substring(p.length()) : s;
            }
            case "trimSuffix": {
                arity(fn, a, 2);
                String s = str(a.get(1));
                String p = str(a.get(0));
                return s.endsWith(p) ? s.substring(0, s.length() - p.length()) : s;
            }
            case "trimAll":
                arity(fn, a, 2);
                return trimChars(str(a.get(1)), str(a.get(0)), true, true);
            case "default": {
                // sprig's default(d, given...): d unless a given value is set
                if (a.isEmpty() || a.size() > 2) {
                    throw new IllegalArgumentException("wrong number of args for default: want 1 or 2 got " + a.size());
                }
                return a.size() == 2 && truthy(a.get(1)) ? a.get(1) : a.get(0);
            }
            case "contains":
                arity(fn, a, 2);
                return str(a.get(1)).contains(str(a.get(0)));
            case "hasPrefix":
                arity(fn, a, 2);
                return str(a.get(1)).startsWith(str(a.get(0)));
            case "hasSuffix":
                arity(fn, a, 2);
                return str(a.get(1)).endsWith(str(a.get(0)));
            case "len":
                // Go's len: a string's bytes (UTF-8), a map's entries
                arity(fn, a, 1);
                return a.get(0) instanceof Map<?, ?> m ? (long) m.size()
                        : (long) str(a.get(0)).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            case "print":
                return GoText.sprint(a, false);
            case "println":
                return GoText.sprint(a, true);
            case "html":
                return GoText.html(GoText.sprint(a, false));
            case "js":
                return GoText.js(GoText.sprint(a, false));
            case "urlquery":
                return GoText.queryEscape(GoText.sprint(a, false));
            case "index":
                return GoText.index(a);
            case "slice":
                return GoText.slice(a);
            case "repeat":
                arity(fn, a, 2);
                return str(a.get(1)).repeat((int) Math.max(0, integer(a.get(0))));
            case "substr": {
                // Loki's substring and trunc: on characters (Go runes), not UTF-16 units
                arity(fn, a, 3);
                int[] s = str(a.get(2)).codePoints().toArray();
                int end = (int) Math.max(-1, Math.min(integer(a.get(1)), s.length)); // only a negative's sign matters
                int start = (int) Math.max(-1, Math.min(integer(a.get(0)), s.length));
                if (start < 0) {
                    return end < 0 ? "" : new String(s, 0, end);
                }
                if (end < 0) {
                    return new String(s, start, s.length - start);
                }
                return start > end ? "" : new String(s, start, end - start);
            }
            case "trunc": {
                arity(fn, a, 2);
                int[] s = str(a.get(1)).codePoints().toArray();
                long n = integer(a.get(0));
                if (n < 0 && s.length + n > 0) {
                    return new String(s, (int) (s.length + n), (int) -n);
                }
                if (n >= 0 && s.length > n) {
                    return new String(s, 0, (int) n);
                }
                return str(a.get(1));
            }
            case "regexReplaceAll":
                arity(fn, a, 3);
                return GoRegex.replaceAll(GoRegex.compileSearch(str(a.get(0))), str(a.get(1)), str(a.get(2)), false);
            case "regexReplaceAllLiteral":
                arity(fn, a, 3);
                return GoRegex.replaceAll(GoRegex.compileSearch(str(a.get(0))), str(a.get(1)), str(a.get(2)), true);
            case "count": {
                arity(fn, a, 2);
                com.google.re2j.Matcher m = GoRegex.compileSearch(str(a.get(0))).matcher(str(a.get(1)));
                long n = 0;
                while (m.find()) {
                    n++;
                }
                return n;
            }
            case "printf":
                if (a.isEmpty()) {
                    throw new IllegalArgumentException("wrong number of args for printf: want at least 1 got 0");
                }
                return GoFormat.sprintf(str(a.get(0)), a.subList(1, a.size()));
            case "eq":
                arity(fn, a, 2);
                return compare(a.get(0), a.get(1)) == 0;
            case "ne":
                arity(fn, a, 2);
                return compare(a.get(0), a.get(1)) != 0;
            case "lt":
                arity(fn, a, 2);
                return compare(a.get(0), a.get(1)) < 0;
            case "le":
                arity(fn, a, 2);
                return compare(a.get(0), a.get(1)) <= 0;
            case "gt":
                arity(fn, a, 2);
                return compare(a.get(0), a.get(1)) > 0;
            case "ge":
                arity(fn, a, 2);
                return compare(a.get(0), a.get(1)) >= 0;
            case "and": {
                Object last = null;
                for (Object o : a) {
                    last = o;
                    if (!truthy(o)) {
                        return o;
                    }
                }
                return last;
            }
            case "or": {
                Object last = null;
                for (Object o : a) {
                    last = o;
                    if (truthy(o)) {
                        return o;
                    }
                }
                return last;
            }
            case "not":
                arity(fn, a, 1);
                return !truthy(a.get(0));
            case "int":
                arity(fn, a, 1);
                return integer(a.get(0));
            case "float64":
                arity(fn, a, 1);
                return num(a.get(0));
            case "add":
                return a.stream().mapToLong(Template::integer).sum();
            case "sub":
                arity(fn, a, 2);
                return integer(a.get(0)) - integer(a.get(1));
            case "mul":
                return a.stream().mapToLong(Template::integer).reduce(1, (x, y) -> x * y);
            case "div": {
                arity(fn, a, 2);
                long d = integer(a.get(1));
                if (d == 0) {
                    throw new IllegalArgumentException("integer divide by zero");
                }
                return integer(a.get(0)) / d;
            }
            case "mod": {
                arity(fn, a, 2);
                long d = integer(a.get(1));
                if (d == 0) {
                    throw new IllegalArgumentException("integer divide by zero");
                }
                return integer(a.get(0)) % d;
            }
            case "addf":
                return a.stream().mapToDouble(Template::num).sum();
            case "subf":
                arity(fn, a, 2);
                return num(a.get(0)) - num(a.get(1));
            case "mulf":
                return a.stream().mapToDouble(Template::num).reduce(1, (x, y) -> x * y);
            case "divf":
                arity(fn, a, 2);
                return num(a.get(0)) / num(a.get(1));
            case "abs":
                arity(fn, a, 1);
                return Math.abs(num(a.get(0)));
            case "ceil":
                arity(fn, a, 1);
                return Math.ceil(num(a.get(0)));
            case "floor":
                arity(fn, a, 1);
                return Math.floor(num(a.get(0)));
            case "round": {
                if (a.size() < 2 || a.size() > 3) {
                    throw new IllegalArgumentException("wrong number of args for round: want 2 or 3 got " + a.size());
                }
                double scale = Math.pow(10, integer(a.get(1)));
                return Math.round(num(a.get(0)) * scale) / scale;
            }
            case "max":
                return a.stream().mapToLong(Template::integer).max().orElse(0);
            case "min":
                return a.stream().mapToLong(Template::integer).min().orElse(0);
            case "maxf":
                return a.stream().mapToDouble(Template::num).max().orElse(0);
            case "minf":
                return a.stream().mapToDouble(Template::num).min().orElse(0);
            case "unixEpoch":
                arity(fn, a, 1);
                return time(a.get(0)).toEpochSecond();
            case "unixEpochMillis":
                arity(fn, a, 1);
                return time(a.get(0)).toInstant().toEpochMilli();
            case "unixEpochNanos": {
                arity(fn, a, 1);
                Instant i = time(a.get(0)).toInstant();
                return i.getEpochSecond() * 1_000_000_000L + i.getNano();
            }
            case "toDateInUTC", "date":
                arity(fn, a, 2);
                // sprig's date: a time or Unix seconds, in the server's zone (UTC)
                return GoTime.layout(str(a.get(0)), a.get(1) instanceof Long seconds
                        ? utc(Instant.ofEpochSecond(seconds)) : time(a.get(1)).withZoneSameInstant(ZoneOffset.UTC));
            case "now":
                arity(fn, a, 0);
                return ZonedDateTime.now(ZoneOffset.UTC);
            case "toDate":
                arity(fn, a, 2);
                return GoTimeParser.parse(str(a.get(0)), str(a.get(1)), ZoneOffset.UTC).orElse(GoTime.ZERO);
            case "toDateInZone":
                arity(fn, a, 3);
                return GoTimeParser.parse(str(a.get(0)), str(a.get(2)), zone(str(a.get(1)))).orElse(GoTime.ZERO);
            case "b64enc":
                arity(fn, a, 1);
                return java.util.Base64.getEncoder().encodeToString(str(a.get(0)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            case "b64dec":
                arity(fn, a, 1);
                return GoText.base64Decode(str(a.get(0)));
            case "urlencode":
                arity(fn, a, 1);
                return GoText.queryEscape(str(a.get(0)));
            case "urldecode":
                arity(fn, a, 1);
                return GoText.queryUnescape(str(a.get(0)));
            case "bytes":
                arity(fn, a, 1);
                try {
                    return GoUnits.parseBytes(str(a.get(0)));
                } catch (GoStrings.ConversionException e) {
                    throw new IllegalArgumentException("error calling bytes: " + e.getMessage());
                }
            case "duration", "duration_seconds":
                arity(fn, a, 1);
                try {
                    return GoUnits.durationSeconds(str(a.get(0)));
                } catch (GoStrings.ConversionException e) {
                    throw new IllegalArgumentException("error calling " + fn + ": " + e.getMessage());
                }
            case "alignLeft":
                arity(fn, a, 2);
                return align(str(a.get(1)), integer(a.get(0)), true);
            case "alignRight":
                arity(fn, a, 2);
                return align(str(a.get(1)), integer(a.get(0)), false);
            case "unixToTime":
                arity(fn, a, 1);
                return unixToTime(str(a.get(0)));
            case "indent":
                arity(fn, a, 2);
                return indent(str(a.get(1)), (int) integer(a.get(0)));
            case "nindent":
                arity(fn, a, 2);
                return "\n" + indent(str(a.get(1)), (int) integer(a.get(0)));
            default:
                throw new IllegalArgumentException("function \"" + fn + "\" not defined");
        }
    }

    static boolean knownFunction(String fn) {
        return FUNCTIONS.contains(fn);
    }

    private static final java.util.Set<String> FUNCTIONS = java.util.Set.of("__line__", "__timestamp__", "ToUpper",
            "upper", "toUpper", "ToLower", "lower", "toLower", "Title", "title", "Replace", "replace", "Trim",
            "TrimLeft", "TrimRight", "TrimSpace", "trim", "TrimPrefix", "TrimSuffix", "trimPrefix", "trimSuffix",
            "trimAll", "default", "contains", "hasPrefix", "hasSuffix", "len", "repeat", "substr", "trunc",
            "regexReplaceAll", "regexReplaceAllLiteral", "count", "printf", "eq", "ne", "lt", "le", "gt", "ge", "and",
            "or", "not", "int", "float64", "add", "sub", "mul", "div", "mod", "addf", "subf", "mulf", "divf", "abs",
            "ceil", "floor", "round", "max", "min", "maxf", "minf", "unixEpoch", "unixEpochMillis", "unixEpochNanos",
            "toDateInUTC", "date", "b64enc", "b64dec", "urlencode", "urldecode", "bytes", "duration",
            "duration_seconds", "unixToTime", "now", "toDate", "toDateInZone", "print", "println", "html", "js",
            "urlquery", "index", "slice", "alignLeft", "alignRight", "indent", "nindent");

    private static ZonedDateTime utc(Instant i) {
        return i.atZone(ZoneOffset.UTC);
    }

    /** Go's LoadLocation as Loki's toDateInZone uses it: an unknown zone is UTC, so are "" and "Local" here. */
    private static ZoneId zone(String name) {
        try {
            return name.isEmpty() || name.equals("Local") ? ZoneOffset.UTC : ZoneId.of(name);
        } catch (DateTimeException e) {
            return ZoneOffset.UTC;
        }
    }

    private static ZonedDateTime time(Object v) {
        if (v instanceof ZonedDateTime t) {
            return t;
        }
        throw new IllegalArgumentException("expected a time value, got " + GoStrings.quote(str(v)));
    }

    /**
     * Loki's alignLeft / alignRight: {@code s} padded with spaces to {@code count} characters (Unicode code points),
     * or cut to its first (left) or last (right) {@code count}; a negative count leaves it as it is.
     */
    private static String align(String s, long count, boolean left) {
        int length = s.codePointCount(0, s.length());
        if (count < 0 || count == length) {
            return s;
        }
        if (count > length) {
            String pad = " ".repeat((int) Math.min(count - length, Integer.MAX_VALUE - s.length()));
            return left ? s + pad : pad + s;
        }
        return left ? s.substring(0, s.offsetByCodePoints(0, (int) count))
                : s.substring(s.offsetByCodePoints(0, length - (int) count));
    }

    /**
     * Loki's unixToTime: an epoch in days (5 digits), seconds (10), milliseconds (13), microseconds (16) or
     * nanoseconds (19), told apart by its length as Go's strconv.ParseInt reads it (an optional sign counts).
     */
    private static ZonedDateTime unixToTime(String epoch) {
        long i;
        try {
            i = GoStrings.parseInt(epoch);
        } catch (GoStrings.ConversionException e) {
            throw new IllegalArgumentException("error calling unixToTime: unable to parse time '" + epoch + "': "
                    + e.getMessage());
        }
        return switch (epoch.length()) {
            case 5 -> utc(Instant.ofEpochSecond(i * 86_400));
            case 10 -> utc(Instant.ofEpochSecond(i));
            case 13 -> utc(Instant.ofEpochSecond(0, i * 1_000_000)); // Go multiplies in 64 bits too
            case 16 -> utc(Instant.ofEpochSecond(0, i * 1_000));
            case 19 -> utc(Instant.ofEpochSecond(0, i));
            // Go wraps the nil error of a successful parse: its %w prints that way
            default -> throw new IllegalArgumentException("error calling unixToTime: unable to parse time '" + epoch
                    + "': %!w(<nil>)");
        };
    }

    private static String indent(String s, int n) {
        String pad = " ".repeat(Math.max(0, n));
        return pad + s.replace("\n", "\n" + pad);
    }

    private static int compare(Object x, Object y) {
        if ((x instanceof Double || x instanceof Long) && (y instanceof Double || y instanceof Long)) {
            return Double.compare(num(x), num(y));
        }
        return str(x).compareTo(str(y));
    }

    private static String replace(String s, String old, String repl, long n) {
        if (n < 0) {
            return s.replace(old, repl);
        }
        StringBuilder sb = new StringBuilder();
        int from = 0;
        for (long i = 0; i < n; i++) {
            int idx = s.indexOf(old, from);
            if (idx < 0) {
                break;
            }
            sb.append(s, from, idx).append(repl);
            from = idx + old.length();
            if (old.isEmpty()) {
                if (from < s.length()) {
                    sb.append(s.charAt(from));
                }
                from++;
                if (from > s.length()) {
                    return sb.toString();
                }
            }
        }
        return sb.append(s.substring(Math.min(from, s.length()))).toString();
    }

    private static String trimChars(String s, String cut, boolean left, boolean right) {
        int a = 0;
        int b = s.length();
        while (left && a < b && cut.indexOf(s.charAt(a)) >= 0) {
            a++;
        }
        while (right && b > a && cut.indexOf(s.charAt(b - 1)) >= 0) {
            b--;
        }
        return s.substring(a, b);
    }

    /**
     * Go's strings.Title (sprig's title): the first letter of each word in title case, a word starting after a
     * separator: any ASCII character but letters, digits and '_' (an apostrophe too: "don't" is "Don'T"), and
     * Unicode space.
     */
    private static String title(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        boolean start = true;
        for (int i = 0; i < s.length(); ) {
            int c = s.codePointAt(i);
            i += Character.charCount(c);
            sb.appendCodePoint(start ? Character.toTitleCase(c) : c);
            start = c <= 0x7F ? !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_')
                    : !Character.isLetterOrDigit(c) && (c == 0x85 || Character.isSpaceChar(c) || Character.isWhitespace(c));
        }
        return sb.toString();
    }

    /** Recursive-descent parser over the template text. Not thread-safe; one per parse. */
    private static final class Parser {
        private static final Pattern IDENT = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
        private static final Pattern VARIABLE = Pattern.compile("\\$[a-zA-Z0-9_]*");
        private final String src;
        private int pos;
        private String pendingEnd;
        private int rangeDepth;

        Parser(String src) {
            this.src = src;
        }

        /** Parses nodes until EOF or a control action ({@code else}, {@code end}) stored in pendingEnd. */
        List<Node> nodes(boolean nested) {
            List<Node> out = new ArrayList<>();
            while (pos < src.length()) {
                int open = src.indexOf("{{", pos);
                if (open < 0) {
                    out.add(new Text(src.substring(pos)));
                    pos = src.length();
                    break;
                }
                String text = src.substring(pos, open);
                boolean trimLeft = src.startsWith("{{-", open) && open + 3 < src.length()
                        && Character.isWhitespace(src.charAt(open + 3));
                if (trimLeft) {
                    text = text.stripTrailing();
                }
                if (!text.isEmpty()) {
                    out.add(new Text(text));
                }
                int close = findClose(open + 2);
                String body = src.substring(open + (trimLeft ? 3 : 2), close);
                boolean trimRight = body.endsWith(" -") || body.endsWith("\t-") || body.endsWith("\n-");
                if (trimRight) {
                    body = body.substring(0, body.length() - 1);
                }
                pos = close + 2;
                if (trimRight) {
                    while (pos < src.length() && Character.isWhitespace(src.charAt(pos))) {
                        pos++;
                    }
                }
                String b = body.strip();
                if (b.startsWith("/*")) {
                    continue;
                }
                String keyword = b.split("\\s+", 2)[0];
                if (keyword.equals("if")) {
                    out.add(parseIf(b.substring(2)));
                } else if (keyword.equals("range")) {
                    out.add(parseRange(b.substring(5)));
                } else if (keyword.equals("with")) {
                    out.add(parseWith(b.substring(4)));
                } else if (keyword.equals("break") || keyword.equals("continue")) {
                    if (rangeDepth == 0) {
                        throw new IllegalArgumentException("{{" + keyword + "}} outside {{range}}");
                    }
                    out.add(new Loop(keyword.equals("break")));
                } else if (keyword.equals("else") || keyword.equals("end")) {
                    if (!nested) {
                        throw new IllegalArgumentException("unexpected {{" + b + "}}");
                    }
                    pendingEnd = b;
                    return out;
                } else if (keyword.equals("define") || keyword.equals("template") || keyword.equals("block")) {
                    throw new IllegalArgumentException("{{" + keyword + "}} is not supported");
                } else {
                    out.add(new Action(pipe(new Lexer(b), true)));
                }
            }
            if (nested) {
                throw new IllegalArgumentException("unexpected EOF: missing {{end}}");
            }
            return out;
        }

        private Range parseRange(String header) {
            Pipe p = pipe(new Lexer(header.strip()), true);
            if (p.variables().size() > 2) {
                throw new IllegalArgumentException("too many declarations in range");
            }
            rangeDepth++;
            List<Node> body = nodes(true);
            rangeDepth--;
            List<Node> otherwise = elseBranch("range");
            return new Range(p, body, otherwise);
        }

        private With parseWith(String header) {
            Pipe p = pipe(new Lexer(header.strip()), true);
            List<Node> body = nodes(true);
            String ctl = pendingEnd;
            if (ctl.startsWith("else") && ctl.substring(4).strip().startsWith("with ")) {
                pendingEnd = null;
                return new With(p, body, List.of(parseWith(ctl.substring(4).strip().substring(5))));
            }
            return new With(p, body, elseBranch("with"));
        }

        /** After a body: nothing on {{end}}, or the else body up to its {{end}}. */
        private List<Node> elseBranch(String what) {
            String ctl = pendingEnd;
            pendingEnd = null;
            if (ctl.equals("end")) {
                return List.of();
            }
            if (!ctl.substring(4).strip().isEmpty()) {
                throw new IllegalArgumentException("unexpected {{" + ctl + "}} in " + what);
            }
            List<Node> otherwise = nodes(true);
            String end = pendingEnd;
            pendingEnd = null;
            if (!end.equals("end")) {
                throw new IllegalArgumentException("unexpected {{" + end + "}} in " + what);
            }
            return otherwise;
        }

        private If parseIf(String condition) {
            Pipe cond = pipe(new Lexer(condition.strip()), true);
            List<Node> then = nodes(true);
            String ctl = pendingEnd;
            pendingEnd = null;
            if (ctl.equals("end")) {
                return new If(cond, then, List.of());
            }
            String rest = ctl.substring(4).strip();
            if (rest.startsWith("if ")) {
                return new If(cond, then, List.of(parseIf(rest.substring(3))));
            }
            if (!rest.isEmpty()) {
                throw new IllegalArgumentException("unexpected {{" + ctl + "}}");
            }
            List<Node> otherwise = nodes(true);
            String end = pendingEnd;
            pendingEnd = null;
            if (!end.equals("end")) {
                throw new IllegalArgumentException("unexpected {{" + end + "}}");
            }
            return new If(cond, then, otherwise);
        }

        private int findClose(int from) {
            int i = from;
            while (i < src.length()) {
                char c = src.charAt(i);
                if (c == '"') {
                    i++;
                    while (i < src.length() && src.charAt(i) != '"') {
                        if (src.charAt(i) == '\\') {
                            i++;
                        }
                        i++;
                    }
                } else if (c == '`') {
                    i = src.indexOf('`', i + 1);
                    if (i < 0) {
                        break;
                    }
                } else if (src.startsWith("}}", i)) {
                    return i;
                }
                i++;
            }
            throw new IllegalArgumentException("unclosed action");
        }

        private Pipe pipe(Lexer lx, boolean declarations) {
            List<String> variables = new ArrayList<>();
            boolean define = true;
            if (declarations) {
                int mark = lx.i;
                List<String> names = new ArrayList<>();
                while (lx.peek() != null && lx.peek().startsWith("$") && VARIABLE.matcher(lx.peek()).matches()) {
                    names.add(lx.next());
                    if (",".equals(lx.peek())) {
                        lx.next();
                        continue;
                    }
                    break;
                }
                if (!names.isEmpty() && (":=".equals(lx.peek()) || "=".equals(lx.peek()))) {
                    define = lx.next().equals(":=");
                    variables = names;
                } else {
                    lx.i = mark;
                }
            }
            List<Command> cmds = new ArrayList<>();
            while (true) {
                cmds.add(command(lx));
                if (lx.peek() == null || lx.peek().equals(")")) {
                    break;
                }
                if (!lx.next().equals("|")) {
                    throw new IllegalArgumentException("unexpected token in pipeline");
                }
            }
            return new Pipe(variables, define, cmds);
        }

        private Command command(Lexer lx) {
            List<Object> operands = new ArrayList<>();
            String fn = null;
            boolean firstToken = true;
            while (lx.peek() != null && !lx.peek().equals("|") && !lx.peek().equals(")")) {
                String t = lx.next();
                if (firstToken && IDENT.matcher(t).matches() && !t.equals("true") && !t.equals("false")
                        && !t.equals("nil")) {
                    if (!knownFunction(t)) {
                        throw new IllegalArgumentException("function \"" + t + "\" not defined");
                    }
                    fn = t;
                } else {
                    operands.add(operand(t, lx));
                }
                firstToken = false;
            }
            if (fn == null && operands.isEmpty()) {
                throw new IllegalArgumentException("missing value for command");
            }
            return new Command(fn, operands);
        }

        private Object operand(String t, Lexer lx) {
            if (t.equals("(")) {
                Pipe p = pipe(lx, false);
                if (!")".equals(lx.next())) {
                    throw new IllegalArgumentException("unclosed left paren");
                }
                return p;
            }
            if (t.equals(".")) {
                return new Dot();
            }
            if (t.startsWith(".")) {
                return new Field(t.substring(1));
            }
            if (t.startsWith("$")) {
                String[] parts = t.split("\\.", -1);
                if (!VARIABLE.matcher(parts[0]).matches()) {
                    throw new IllegalArgumentException("bad variable " + GoStrings.quote(t));
                }
                return new Variable(parts[0], List.of(parts).subList(1, parts.length));
            }
            if (t.startsWith("\"") || t.startsWith("`")) {
                return GoStrings.unquote(t);
            }
            if (t.equals("true") || t.equals("false")) {
                return Boolean.parseBoolean(t);
            }
            try {
                if (t.matches("-?[0-9]+")) {
                    return Long.parseLong(t);
                }
                return Double.parseDouble(t);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("unexpected " + GoStrings.quote(t) + " in operand");
            }
        }
    }

    /** Tokenizer for an action body. */
    private static final class Lexer {
        private final List<String> tokens = new ArrayList<>();
        int i;

        Lexer(String s) {
            int p = 0;
            while (p < s.length()) {
                char c = s.charAt(p);
                if (Character.isWhitespace(c)) {
                    p++;
                } else if (c == '|' || c == '(' || c == ')' || c == ',') {
                    tokens.add(String.valueOf(c));
                    p++;
                } else if (s.startsWith(":=", p)) {
                    tokens.add(":=");
                    p += 2;
                } else if (c == '=' && (p + 1 >= s.length() || s.charAt(p + 1) != '=')) {
                    tokens.add("=");
                    p++;
                } else if (c == '"') {
                    int e = p + 1;
                    while (e < s.length() && s.charAt(e) != '"') {
                        if (s.charAt(e) == '\\') {
                            e++;
                        }
                        e++;
                    }
                    if (e >= s.length()) {
                        throw new IllegalArgumentException("unterminated quoted string");
                    }
                    tokens.add(s.substring(p, e + 1));
                    p = e + 1;
                } else if (c == '`') {
                    int e = s.indexOf('`', p + 1);
                    if (e < 0) {
                        throw new IllegalArgumentException("unterminated raw quoted string");
                    }
                    tokens.add(s.substring(p, e + 1));
                    p = e + 1;
                } else {
                    int e = p;
                    while (e < s.length() && !Character.isWhitespace(s.charAt(e)) && "|()\"`,:=".indexOf(s.charAt(e)) < 0) {
                        e++;
                    }
                    if (e == p) {
                        // a stop character no branch above takes ("==", a lone ':'): without this the lexer
                        // would add empty tokens forever
                        throw new IllegalArgumentException("unexpected " + GoStrings.quote(String.valueOf(c))
                                + " in action at offset " + p);
                    }
                    tokens.add(s.substring(p, e));
                    p = e;
                }
            }
        }

        String peek() {
            return i < tokens.size() ? tokens.get(i) : null;
        }

        String next() {
            return i < tokens.size() ? tokens.get(i++) : null;
        }
    }
}
