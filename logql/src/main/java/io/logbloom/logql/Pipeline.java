package io.logbloom.logql;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.logbloom.logql.LineLabels.Origin;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * A compiled log pipeline with Loki's per-line semantics: line filters, parsers adding labels (suffix
 * {@code _extracted} on collision with stream labels, {@code __error__}/{@code __error_details__} on parse
 * failure), label filters seeing stream labels, structured metadata and parsed labels alike (a missing label
 * reads as ""), {@code line_format}/{@code label_format} templates, drop/keep and decolorize.
 * Immutable after compilation, but {@link #process} uses a per-instance scratch label set, so one instance must
 * not be used by two threads at once ({@link #copy()} gives an independent one).
 */
final class Pipeline {

    static final String JSON_ERROR = "JSONParserErr";
    static final String LOGFMT_ERROR = "LogfmtParserErr";
    static final String LABEL_FILTER_ERROR = "LabelFilterErr";
    static final String TEMPLATE_ERROR = "TemplateFormatErr";
    static final String SAMPLE_ERROR = "SampleExtractionErr";

    private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*[A-Za-z]");

    /** A compiled stage: returns the (possibly rewritten) line, or null to drop it. */
    interface Step {
        String apply(long ts, String line, LineLabels labels);
    }

    private final List<Stage> stages;
    private final List<Step> steps;
    private final LineLabels scratch = new LineLabels();
    /** How many stages at the front are line filters: they read only the line, so they run before labels are built. */
    private final int lineFilterPrefix;

    private Pipeline(List<Stage> stages) {
        this.stages = stages;
        this.steps = new ArrayList<>();
        int prefix = 0;
        for (Stage s : stages) {
            steps.add(compileStage(s));
            if (s instanceof Stage.LineFilter && prefix == steps.size() - 1) {
                prefix++;
            }
        }
        this.lineFilterPrefix = prefix;
    }

    static Pipeline compile(List<Stage> stages) {
        return new Pipeline(List.copyOf(stages));
    }

    Pipeline copy() {
        return new Pipeline(stages);
    }

    /** Compiles one stage; a stage that cannot be built is a query error worded as Loki's stage error. */
    private static Step compileStage(Stage s) {
        try {
            return compile(s);
        } catch (IllegalArgumentException e) {
            StringBuilder text = new StringBuilder();
            Printer.stage(s, text);
            throw new IllegalArgumentException("parse error : stage '" + text + "' : " + e.getMessage(), e);
        }
    }

    /** Runs the pipeline over one entry; returns the final line or null when filtered out. Labels are left in {@link #labels()}. */
    String process(long ts, String line, Map<String, String> streamLabels, Map<String, String> metadata) {
        String l = line;
        for (int i = 0; i < lineFilterPrefix; i++) {
            l = steps.get(i).apply(ts, l, scratch);
            if (l == null) {
                return null; // dropped before any label was copied
            }
        }
        scratch.reset(streamLabels, metadata);
        for (int i = lineFilterPrefix; i < steps.size(); i++) {
            l = steps.get(i).apply(ts, l, scratch);
            if (l == null) {
                return null;
            }
        }
        return l;
    }

    /** The labels of the last processed line. */
    LineLabels labels() {
        return scratch;
    }

    static Step compile(Stage stage) {
        if (stage instanceof Stage.LineFilter f) {
            return lineFilter(f);
        }
        if (stage instanceof Stage.LabelFilterStage f) {
            Predicate<LineLabels> p = labelFilter(f.filter());
            return (ts, line, labels) -> p.test(labels) ? line : null;
        }
        if (stage instanceof Stage.Json j) {
            return json(j.params());
        }
        if (stage instanceof Stage.Logfmt l) {
            return logfmt(l);
        }
        if (stage instanceof Stage.Regexp r) {
            RegexpParser parser = RegexpParser.compile(r.regex());
            return (ts, line, labels) -> {
                parser.extract(line, (k, v) -> labels.add(Origin.PARSED, k, v));
                return line;
            };
        }
        if (stage instanceof Stage.PatternParser p) {
            LinePattern pattern = LinePattern.parse(p.pattern(), true);
            return (ts, line, labels) -> {
                Map<String, String> m = pattern.match(line);
                if (m != null) {
                    m.forEach((k, v) -> labels.add(Origin.PARSED, k, v));
                }
                return line;
            };
        }
        if (stage instanceof Stage.Unpack) {
            JsonFactory factory = new JsonFactory();
            return (ts, line, labels) -> unpack(factory, line, labels);
        }
        if (stage instanceof Stage.LineFormat f) {
            Template t;
            try {
                t = Template.parse(f.template());
            } catch (IllegalArgumentException e) {
                Throwable reason = e.getCause() != null ? e.getCause() : e;
                throw new IllegalArgumentException("invalid line template: template: line:1: " + reason.getMessage(), e);
            }
            return (ts, line, labels) -> {
                try {
                    return t.execute(new Template.Context(labels.view(), line, ts));
                } catch (RuntimeException e) {
                    labels.setError(TEMPLATE_ERROR, e.getMessage());
                    return line;
                }
            };
        }
        if (stage instanceof Stage.LabelFormat f) {
            return labelFormat(f);
        }
        if (stage instanceof Stage.Drop d) {
            List<LabelSelectTest> tests = selectTests(d.labels());
            return (ts, line, labels) -> {
                for (LabelSelectTest t : tests) {
                    if (labels.has(t.name()) && t.test().test(labels.get(t.name()))) {
                        labels.delete(t.name());
                    }
                }
                return line;
            };
        }
        if (stage instanceof Stage.Keep k) {
            List<LabelSelectTest> tests = selectTests(k.labels());
            return (ts, line, labels) -> {
                for (String name : labels.names()) {
                    boolean keep = LineLabels.isError(name);
                    for (LabelSelectTest t : tests) {
                        if (t.name().equals(name) && t.test().test(labels.get(name))) {
                            keep = true;
                            break;
                        }
                    }
                    if (!keep) {
                        labels.delete(name);
                    }
                }
                return line;
            };
        }
        if (stage instanceof Stage.Decolorize) {
            return (ts, line, labels) -> ANSI.matcher(line).replaceAll("");
        }
        throw new IllegalStateException("BUG: unhandled stage " + stage);
    }

    private record LabelSelectTest(String name, Predicate<String> test) {
    }

    private static List<LabelSelectTest> selectTests(List<Stage.LabelSelect> selects) {
        List<LabelSelectTest> out = new ArrayList<>();
        for (Stage.LabelSelect s : selects) {
            out.add(new LabelSelectTest(s.name(), s.matcher() == null ? v -> true : s.matcher().compile()));
        }
        return out;
    }

    // ---- line filters ----

    private static Step lineFilter(Stage.LineFilter f) {
        List<Predicate<String>> terms = new ArrayList<>();
        for (Stage.FilterTerm t : f.terms()) {
            terms.add(term(f.op(), t));
        }
        boolean negated = f.op().negated();
        return (ts, line, labels) -> {
            boolean any = false;
            for (Predicate<String> p : terms) {
                if (p.test(line)) {
                    any = true;
                    break;
                }
            }
            return any != negated ? line : null;
        };
    }

    /** The row-at-a-time test of one line-filter term (also used by {@link LineFilterBytes} after a byte prefilter). */
    static Predicate<String> term(Stage.LineFilterOp op, Stage.FilterTerm t) {
        if (t.ip()) {
            IpMatcher m = IpMatcher.parse(t.value());
            return m::matchesAnyIn;
        }
        return switch (op) {
            case CONTAINS, NOT_CONTAINS -> {
                String lit = t.value();
                yield line -> line.contains(lit);
            }
            case MATCHES, NOT_MATCHES -> {
                com.google.re2j.Pattern p = GoRegex.compileLineFilter(t.value());
                yield line -> p.matcher(line).find();
            }
            case PATTERN, NOT_PATTERN -> {
                LinePattern p = LinePattern.parse(t.value(), false);
                yield p::test;
            }
        };
    }

    // ---- label filters ----

    static Predicate<LineLabels> labelFilter(LabelFilter f) {
        if (f instanceof LabelFilter.And a) {
            Predicate<LineLabels> l = labelFilter(a.left());
            Predicate<LineLabels> r = labelFilter(a.right());
            return labels -> l.test(labels) && r.test(labels);
        }
        if (f instanceof LabelFilter.Or o) {
            Predicate<LineLabels> l = labelFilter(o.left());
            Predicate<LineLabels> r = labelFilter(o.right());
            return labels -> l.test(labels) || r.test(labels);
        }
        if (f instanceof LabelFilter.StringFilter s) {
            String name = s.matcher().name();
            Predicate<String> p = s.matcher().compile();
            return labels -> p.test(labels.get(name));
        }
        if (f instanceof LabelFilter.IpFilter ip) {
            IpMatcher m = IpMatcher.parse(ip.pattern());
            return labels -> {
                String v = labels.get(ip.name());
                if (v == null) {
                    return ip.negated();
                }
                return m.matches(v) != ip.negated();
            };
        }
        if (f instanceof LabelFilter.NumberFilter n) {
            return numeric(n.name(), n.op(), n.value(), GoStrings::parseFloat);
        }
        if (f instanceof LabelFilter.DurationFilter d) {
            return numeric(d.name(), d.op(), d.nanos(), v -> (double) GoUnits.parseDuration(v));
        }
        LabelFilter.BytesFilter b = (LabelFilter.BytesFilter) f;
        return numeric(b.name(), b.op(), b.bytes(), GoUnits::parseBytes);
    }

    private interface Converter {
        double convert(String v);
    }

    private static Predicate<LineLabels> numeric(String name, LabelFilter.CompareOp op, double value, Converter conv) {
        return labels -> {
            String v = labels.get(name);
            if (v == null) {
                return false;
            }
            double x;
            try {
                x = conv.convert(v); // untrimmed, as Go's parsers take it
            } catch (IllegalArgumentException e) {
                labels.setError(LABEL_FILTER_ERROR, e.getMessage()); // keeps an earlier, more useful error
                return true; // as Loki: an unconvertible value keeps the line, marked with the error
            }
            return op.test(x, value);
        };
    }

    // ---- parsers ----

    private static Step json(List<Stage.LabelExtraction> params) {
        // one factory per compiled stage: Jackson factories are thread-safe once configured, and no state is static
        JsonFactory factory = new JsonFactory();
        if (params.isEmpty()) {
            return (ts, line, labels) -> {
                if (!JsonObjectScan.opensObject(line)) {
                    // Jackson could only fail on it, at the cost of an exception per line (most lines of a mixed
                    // stream): the scanner words the same error directly
                    labels.setError(JSON_ERROR, JsonObjectScan.error(line));
                    return line;
                }
                try (JsonParser p = factory.createParser(line)) {
                    if (p.nextToken() != JsonToken.START_OBJECT) {
                        throw new IOException(JsonObjectScan.MALFORMED_OBJECT);
                    }
                    flatten(p, "", labels);
                } catch (IOException e) {
                    // Loki's scanner decides whether this is an error (it is more lenient than Jackson) and words it
                    String details = JsonObjectScan.error(line);
                    if (details != null) {
                        labels.setError(JSON_ERROR, details);
                    }
                }
                return line;
            };
        }
        List<String> expressions = new ArrayList<>();
        for (Stage.LabelExtraction p : params) {
            expressions.add(p.expression());
        }
        JsonPathExtractor extractor = new JsonPathExtractor(expressions);
        return (ts, line, labels) -> {
            if (line.isEmpty()) {
                return line; // Loki's parser sets nothing on an empty line
            }
            String[] values = extractor.extract(line);
            if (values == null) {
                labels.setError(JSON_ERROR, null); // Loki's expression parser checks only how the line starts
                return line;
            }
            for (int i = 0; i < params.size(); i++) {
                labels.add(Origin.PARSED, params.get(i).label(), values[i]);
            }
            return line;
        };
    }

        private static void flatten(JsonParser p, String prefix, LineLabels labels) throws IOException {
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_OBJECT) {
            if (t != JsonToken.FIELD_NAME) {
                throw new IOException("unexpected token " + t);
            }
            String key = prefix + sanitize(p.currentName());
            JsonToken v = p.nextToken();
            switch (v) {
                case START_OBJECT -> flatten(p, key + "_", labels);
                case START_ARRAY -> p.skipChildren();
                case VALUE_NULL -> labels.add(Origin.PARSED, key, "");
                default -> labels.add(Origin.PARSED, key, p.getText());
            }
        }
    }

    /** Loki's label-name sanitising: invalid characters become '_', a leading digit gets a '_' prefix. */
    static String sanitize(String key) {
        StringBuilder sb = null;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= '0' && c <= '9';
            if (!ok) {
                if (sb == null) {
                    sb = new StringBuilder(key.substring(0, i));
                }
                sb.append('_');
            } else if (sb != null) {
                sb.append(c);
            }
        }
        String out = sb == null ? key : sb.toString();
        if (!out.isEmpty() && Character.isDigit(out.charAt(0))) {
            out = "_" + out;
        }
        return out;
    }

    private static String unpack(JsonFactory factory, String line, LineLabels labels) {
        if (!JsonObjectScan.opensObject(line)) {
            labels.setError(JSON_ERROR, JsonObjectScan.error(line)); // as the parser's failure below, without it
            return line;
        }
        String entry = null;
        try (JsonParser p = factory.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("Value looks like object, but can't find closing '}' symbol");
            }
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_OBJECT) {
                if (t != JsonToken.FIELD_NAME) {
                    throw new IOException("unexpected token " + t);
                }
                String key = p.currentName();
                JsonToken v = p.nextToken();
                if (v == JsonToken.VALUE_STRING) {
                    if (key.equals("_entry")) {
                        entry = p.getText();
                    } else {
                        labels.add(Origin.PARSED, sanitize(key), p.getText());
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException e) {
            String details = JsonObjectScan.error(line);
            if (details != null) {
                labels.setError(JSON_ERROR, details);
                return line;
            }
        }
        return entry == null ? line : entry;
    }

    private static Step logfmt(Stage.Logfmt l) {
        Map<String, String> wanted = new java.util.LinkedHashMap<>();
        for (Stage.LabelExtraction p : l.params()) {
            wanted.put(p.expression(), p.label());
        }
        return (ts, line, labels) -> {
            try {
                Logfmt.decode(line, l.strict(), (k, v, standalone) -> {
                    if (wanted.isEmpty()) {
                        if ((standalone || v.isEmpty()) && !l.keepEmpty()) {
                            return; // Loki drops empty values unless --keep-empty
                        }
                        String key = sanitize(k);
                        if (!key.isEmpty()) {
                            labels.add(Origin.PARSED, key, v);
                        }
                    } else {
                        String label = wanted.get(k);
                        if (label != null) {
                            labels.add(Origin.PARSED, label, v);
                        }
                    }
                });
            } catch (IllegalArgumentException e) {
                labels.setError(LOGFMT_ERROR, e.getMessage());
            }
            return line;
        };
    }

    private static Step labelFormat(Stage.LabelFormat f) {
        List<Template> templates = new ArrayList<>();
        for (Stage.LabelFormatOp op : f.ops()) {
            templates.add(op.template() ? Template.parse(op.value()) : null);
        }
        return (ts, line, labels) -> {
            Map<String, String> before = new java.util.HashMap<>(labels.view());
            List<String> values = new ArrayList<>();
            for (int i = 0; i < f.ops().size(); i++) {
                Stage.LabelFormatOp op = f.ops().get(i);
                if (op.template()) {
                    try {
                        values.add(templates.get(i).execute(new Template.Context(before, line, ts)));
                    } catch (RuntimeException e) {
                        labels.setError(TEMPLATE_ERROR, e.getMessage());
                        values.add(null);
                    }
                } else {
                    String v = before.get(op.value());
                    values.add(v == null ? "" : v);
                }
            }
            for (int i = 0; i < f.ops().size(); i++) {
                Stage.LabelFormatOp op = f.ops().get(i);
                if (!op.template() && !op.value().equals(op.destination())) {
                    labels.delete(op.value());
                }
            }
            for (int i = 0; i < f.ops().size(); i++) {
                if (values.get(i) != null) {
                    labels.set(Origin.PARSED, f.ops().get(i).destination(), values.get(i));
                }
            }
            return line;
        };
    }
}
