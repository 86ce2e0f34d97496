package io.logbloom.logql;

import io.logbloom.logql.SampleExpr.LogRange;
import io.logbloom.logql.SampleExpr.RangeOp;
import io.logbloom.logql.SampleExpr.Unwrap;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The part of a range aggregation's log pipeline after its leading line filters, evaluated on a row's line bytes for a
 * columnar reader: label filters, line filters, one parser ({@code logfmt}, {@code json} without parameters or with
 * paths of object keys, {@code regexp} or {@code pattern}) or both {@code json} and {@code logfmt} (the latter without
 * parameters, as Logs Drilldown's field queries parse streams mixing the two), {@code drop} of the error labels, and an
 * {@code unwrap} with its post filters. {@code regexp} and {@code pattern} run on the line decoded once per row; the
 * other stages run on the bytes. The parser extracts only the labels the rest of the query reads; the other keys are
 * skipped without allocating, and a label filter compares numbers parsed from the bytes. No log entry and no label map
 * is built for a row.
 *
 * <p>Exactness: a row's sample must be the one the row-at-a-time {@link RowSampler} yields. The byte path resolves each
 * label it reads once per stream: a stream label shadows a parsed key of its name (the parsed one becomes {@code
 * name_extracted}, as Loki's labels builder renames it), so such a label is a constant; any other label is the first
 * value, in line order, of the keys that would land on its name (sanitised as Loki does, empty values dropped unless
 * {@code --keep-empty}, or the named parameters). Whenever the byte path meets what would set {@code __error__} (a
 * syntax error, a key named {@code __error__}, a value that does not convert), or a JSON value it reads holds escapes,
 * or the JSON is not strictly well-formed ({@link JsonFlattenBytes}), that row alone is decoded and run through the
 * {@link RowSampler} itself. A row the row-at-a-time path would fail the query on (an error not filtered out), or whose
 * labels would change the result's series, makes the evaluator answer {@link #DECLINE}; the caller then declines and
 * the engine reads entries, which reports the error exactly. Structured metadata the pipeline reads ({@link #reads})
 * comes from the caller, row by row ({@link Evaluator#metadataSlot}, {@link Evaluator#metadata}): it fills the label's
 * slot before the stages run, and a parser's pair of that name replaces it, as parsed labels take precedence over
 * metadata on the row path.
 *
 * <p>Errors a parser sets: a {@code json} stage on a line that opens no object (with parameters: whose first byte is
 * none of '{', '[', '"') sets the error and no label (the row path does the same without reading further), and the
 * stages after it run on the bytes: a {@code drop} of the error labels removes it, a label filter reading an error
 * label defers to the row path, and a row still carrying it at the end is run row at a time (which fails the query or
 * keeps the error, as the result allows).
 *
 * <p>What is supported: stages line filter, label filter, the parsers above and {@code drop} of {@code __error__} (and
 * {@code __error_details__}) without matchers; anything else compiles to null (the row path). The result's series: a
 * pipeline with a parser or unwrap needs a {@code by} grouping; a {@code by} name the parser may set (not an error
 * label, not the unwrapped one) splits a stream's rows into groups by their parsed values ({@link Evaluator#group()}),
 * read from the same slots as the label filters, so a row's group is the labels the row path would give it. A pipeline
 * of label filters, {@code drop} of the error labels, {@code logfmt} and {@code json} also runs on a tokenized line
 * column ({@link Evaluator#evaluate(long, TokenizedLines)}): the logfmt walk runs on the row's skeleton ({@link
 * TokenizedLines}) and only the values of the keys it reads are rebuilt; {@code json} meets only rows whose first byte
 * opens no JSON there (it sets its error and no label), every other row is rebuilt and run on its bytes.
 *
 * <p>Immutable and thread-safe; an {@link Evaluator} is per stream and not thread-safe.
 */
public final class ColumnarPipeline {
    /** The row yields no sample. */
    public static final int REJECT = 0;
    /** The row yields a sample of value {@link Evaluator#value()}. */
    public static final int PASS = 1;
    /** The row cannot be answered exactly here: the whole aggregation must be read row at a time. */
    public static final int DECLINE = 2;

    private static final byte[] ERROR_KEY = LineLabels.ERROR.getBytes(StandardCharsets.US_ASCII);
    /** The step of a {@code | drop} of the error labels ({@link #dropsErrorLabels}): the row's error goes. */
    private static final Object ERROR_DROP = new Object();
    private static final byte[] EQUALS = {'='};
    /** In a key's slot mask: the key lands on {@code __error__}. */
    private static final long ERROR_BIT = 1L << 63;
    /** In a token's cached slot mask: the mask is known (a key naming no slot caches as this bit alone). */
    private static final long KNOWN_BIT = 1L << 62;
    /** Slots a key's mask can name: bits 62 and 63 are {@link #KNOWN_BIT} and {@link #ERROR_BIT}. */
    private static final int MAX_TOKEN_SLOTS = 62;

    /**
     * Rows of a kind (rows that open no JSON, rows that may) {@link AbsentKeySkip} is tried on before it may stop (an
     * evaluator serves one block of a few thousand rows); a JSON row it keeps is then rebuilt, which costs more than
     * the walk of a row that opens none.
     */
    private static final int[] ABSENT_TRIALS = {512, 128};

    /** Per-row answers of a label filter on bytes ({@link LabelTest}). */
    static final int FALSE = 0;
    static final int TRUE = 1;
    static final int UNSURE = 2;

    private final LogRange range;
    private final RangeOp op;
    private final Set<String> grouped;
    /** The stages after the leading line filters, in order (an array: the per-row loops walk it). */
    private final Object[] steps;
    /**
     * The first parser: a {@link Stage.Logfmt}, a {@link Stage.Json} without parameters, a {@code regexp} or
     * {@code pattern} stage, or null. A second parser is only ever the other of {@code json} and {@code logfmt},
     * both without parameters (see {@link #compile}).
     */
    private final Stage parser;
    /** The logfmt parser, else null. */
    private final Stage.Logfmt logfmt;
    /** The {@code json} parser among the stages, or null. */
    private final Stage.Json json;
    /** The labels read after the leading line filters, in slot order. */
    private final String[] names;
    private final int unwrapSlot;
    private final List<LabelTest> post;
    /** The {@code by} names the parser may set (sorted), and their slots: a row's values of them pick its series. */
    private final String[] groupNames;
    private final int[] groupSlots;
    /** A row test that rejects rows on their tokens without a logfmt walk, or null (see {@link KeyNumberSkip}). */
    private final KeyNumberSkip skip;
    /** A row test that rejects rows whose tokens lack a filtered key, or null (see {@link AbsentKeySkip}). */
    private final AbsentKeySkip absentSkip;
    /**
     * For {@code | logfmt | unwrap key} alone (logfmt not strict, without parameters; no conversion, no post
     * filter, no label filter; the key ASCII letters): the key, whose number a row's tokens often give without
     * a walk ({@link TokenizedLines#keyNumber}); else null.
     */
    private final byte[] unwrapKey;

    /** {@link #unwrapKey} of a pipeline (see there), or null. */
    private static byte[] unwrapKey(LogRange range, List<Object> steps, String[] names, int unwrapSlot,
            List<LabelTest> post) {
        boolean alone = steps.size() == 1 && steps.get(0) instanceof Stage.Logfmt l && !l.strict()
                && l.params().isEmpty() && unwrapSlot >= 0 && post.isEmpty()
                && range.unwrap().conversion() == SampleExpr.UnwrapConversion.NONE;
        return alone && KeyNumberSkip.letters(names[unwrapSlot])
                ? names[unwrapSlot].getBytes(StandardCharsets.US_ASCII) : null;
    }

    private ColumnarPipeline(LogRange range, RangeOp op, Set<String> grouped, List<Object> steps,
            Stage parser, String[] names, int unwrapSlot, List<LabelTest> post, String[] groupNames,
            int[] groupSlots, KeyNumberSkip skip, AbsentKeySkip absentSkip) {
        this.skip = skip;
        this.absentSkip = absentSkip;
        this.unwrapKey = unwrapKey(range, steps, names, unwrapSlot, post);
        this.range = range;
        this.op = op;
        this.grouped = grouped;
        this.steps = steps.toArray();
        this.parser = parser;
        this.logfmt = (Stage.Logfmt) steps.stream().filter(Stage.Logfmt.class::isInstance).findFirst().orElse(null);
        this.json = (Stage.Json) steps.stream().filter(Stage.Json.class::isInstance).findFirst().orElse(null);
        this.names = names;
        this.unwrapSlot = unwrapSlot;
        this.post = post;
        this.groupNames = groupNames;
        this.groupSlots = groupSlots;
    }

    /**
     * The pipeline of {@code range} after its first {@code skip} stages (line filters the caller runs itself), or
     * null when a stage or the result's grouping is not supported here.
     *
     * @param grouped the names a {@code by} grouping keeps, or null when every label counts
     */
    static ColumnarPipeline compile(LogRange range, RangeOp op, Set<String> grouped, int skip) {
        Unwrap unwrap = range.unwrap();
        if (op == RangeOp.ABSENT_OVER_TIME || unwrap != null && (op == RangeOp.COUNT_OVER_TIME
                || op == RangeOp.BYTES_OVER_TIME || op == RangeOp.BYTES_RATE)) {
            return null;
        }
        List<Stage> stages = range.log().stages().subList(skip, range.log().stages().size());
        Stage parser = null;
        Map<String, Integer> slots = new LinkedHashMap<>();
        List<Object> steps = new ArrayList<>();
        for (Stage s : stages) {
            if (s instanceof Stage.LineFilter f) {
                steps.add(LineFilterBytes.compile(List.of(f)));
            } else if (s instanceof Stage.LabelFilterStage f) {
                steps.add(LabelTest.of(f.filter(), slots));
            } else if (s instanceof Stage.Logfmt l && !namesError(l.params())
                    && (parser == null || parser instanceof Stage.Json && secondParser(steps, l))) {
                parser = parser == null ? l : parser;
                steps.add(l);
            } else if (s instanceof Stage.Json j && jsonOnBytes(j)
                    && (parser == null || parser instanceof Stage.Logfmt && secondParser(steps, j))) {
                parser = parser == null ? j : parser;
                steps.add(j);
            } else if (s instanceof Stage.Drop d && dropsErrorLabels(d)) {
                steps.add(ERROR_DROP);
            } else if ((s instanceof Stage.Regexp || s instanceof Stage.PatternParser) && parser == null) {
                CaptureParser p = CaptureParser.of(s);
                if (p == null) {
                    return null;
                }
                parser = s;
                steps.add(p);
            } else {
                return null;
            }
        }
        if ((parser != null || unwrap != null) && grouped == null) {
            return null; // parsed labels, or the unwrapped label's removal, would shape the series
        }
        int unwrapSlot = -1;
        List<LabelTest> post = new ArrayList<>();
        if (unwrap != null) {
            unwrapSlot = slot(unwrap.label(), slots);
            for (LabelFilter f : unwrap.postFilters()) {
                post.add(LabelTest.of(f, slots));
            }
        }
        List<String> groupNames = new ArrayList<>();
        if (parser != null) {
            for (String g : new java.util.TreeSet<>(grouped)) {
                if (groupable(g, unwrap)) {
                    groupNames.add(g);
                }
            }
        }
        int[] groupSlots = new int[groupNames.size()];
        for (int i = 0; i < groupSlots.length; i++) {
            groupSlots[i] = slot(groupNames.get(i), slots);
        }
        return new ColumnarPipeline(range, op, grouped == null ? null : Set.copyOf(grouped), List.copyOf(steps),
                parser, slots.keySet().toArray(new String[0]), unwrapSlot, List.copyOf(post),
                groupNames.toArray(new String[0]), groupSlots, KeyNumberSkip.of(stages, slots),
                AbsentKeySkip.of(stages, slots));
    }

    /**
     * Whether {@code second} may follow the parser already in {@code steps} (the other of {@code json} and {@code
     * logfmt}): the {@code logfmt} one without parameters, so it stores a pair under its sanitised key, and a label
     * keeps the first value either gives (the row path's labels keep the first parsed value), read into the same slots.
     */
    private static boolean secondParser(List<Object> steps, Stage second) {
        int parsers = 0;
        for (Object step : steps) {
            if (step instanceof Stage.Logfmt l && !l.params().isEmpty()) {
                return false;
            }
            if (step instanceof Stage) {
                parsers++;
            }
        }
        return parsers == 1 && (!(second instanceof Stage.Logfmt l) || l.params().isEmpty());
    }

    /**
     * Whether a {@code json} stage runs on bytes: without parameters (flattened, {@link JsonFlattenBytes}), or with
     * paths of object keys only ({@link JsonPathBytes}), none naming an error label.
     */
    private static boolean jsonOnBytes(Stage.Json json) {
        if (json.params().size() > JsonPathBytes.MAX_PATHS || namesError(json.params())) {
            return false;
        }
        for (Stage.LabelExtraction p : json.params()) {
            try {
                if (!JsonPath.parse(p.expression()).steps().stream().allMatch(String.class::isInstance)) {
                    return false;
                }
            } catch (IllegalArgumentException e) {
                return false; // the row path reports it
            }
        }
        return true;
    }

    /**
     * Whether {@code drop} removes the error labels and nothing else, whatever their values: {@code | drop
     * __error__} or {@code | drop __error__, __error_details__}, as generated queries follow their parsers with.
     */
    private static boolean dropsErrorLabels(Stage.Drop drop) {
        boolean error = false;
        for (Stage.LabelSelect l : drop.labels()) {
            if (l.matcher() != null
                    || !LineLabels.isError(l.name())) {
                return false;
            }
            error |= l.name().equals(LineLabels.ERROR);
        }
        return error;
    }

    /**
     * Whether rows may be grouped by their parsed values of {@code name}: not an error label (errors decline) and
     * not the unwrapped label (which the row path keeps or drops by its own rule).
     */
    private static boolean groupable(String name, Unwrap unwrap) {
        return !LineLabels.isError(name)
                && (unwrap == null || !name.equals(unwrap.label()));
    }

    private static boolean namesError(List<Stage.LabelExtraction> params) {
        for (Stage.LabelExtraction p : params) {
            if (LineLabels.isError(p.label())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether rows can be evaluated on a tokenized line column ({@link Evaluator#evaluate(long, TokenizedLines)}):
     * the pipeline is label filters, {@code drop} of the error labels and its parsers {@code logfmt} and {@code json},
     * no line filter or other parser needing the line's bytes. With {@code json}, a row whose first byte opens no JSON
     * runs on its tokens (the parser sets its error and no label), any other row is rebuilt and run on its bytes.
     */
    public boolean onTokens() {
        if (names.length > MAX_TOKEN_SLOTS) {
            return false;
        }
        for (Object step : steps) {
            if (!(step instanceof LabelTest || step instanceof Stage.Logfmt || step instanceof Stage.Json
                    || step == ERROR_DROP)) {
                return false;
            }
        }
        return true;
    }

    /** Whether each row is its own sample (an unwrapped value), rather than a count rows may be summed into. */
    public boolean perRow() {
        return unwrapSlot >= 0;
    }

    /**
     * Whether structured metadata named {@code key} could change what this pipeline reads: it reads the label
     * {@code key}, or {@code key_extracted} (the metadata's name when a stream label has it).
     */
    public boolean reads(String key) {
        for (String n : names) {
            if (n.equals(key) || n.equals(key + LineLabels.DUPLICATE_SUFFIX)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code name} is a label a pipeline error sets ({@code __error__}, {@code __error_details__}). */
    public static boolean isErrorLabel(String name) {
        return LineLabels.isError(name);
    }

    /** Whether a parser is among the stages (without one, no stage can set or replace a label). */
    public boolean parses() {
        return parser != null;
    }

    /**
     * Whether the evaluator splits rows into groups by their values of {@code name} ({@link Evaluator#group()}): a
     * {@code by} name a parser may set, whose value structured metadata gives when no parser does.
     */
    public boolean groupsRowsBy(String name) {
        return Arrays.binarySearch(groupNames, name) >= 0;
    }

    /** Whether the result's series of a stream with {@code streamLabels} are its stream labels, whatever the rows say. */
    public boolean groupsSafely(Map<String, String> streamLabels) {
        if (grouped == null) {
            return true; // compile allowed it: no parser, no unwrap, and errors decline row by row
        }
        for (String g : grouped) {
            if (!streamLabels.containsKey(g) && mayProduce(g, streamLabels)
                    && Arrays.binarySearch(groupNames, g) < 0) {
                return false;
            }
        }
        return true;
    }

    private boolean mayProduce(String name, Map<String, String> streamLabels) {
        if (LineLabels.isError(name)) {
            return true;
        }
        if (parser == null) {
            return false;
        }
        if (logfmt == null || logfmt.params().isEmpty()) {
            return true;
        }
        for (Stage.LabelExtraction p : logfmt.params()) {
            String renamed = streamLabels.containsKey(p.label()) ? p.label() + LineLabels.DUPLICATE_SUFFIX : p.label();
            if (renamed.equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** An evaluator for the rows of one stream. */
    public Evaluator evaluator(Map<String, String> streamLabels) {
        return new Evaluator(streamLabels);
    }

    /** The slot of {@code name} in {@code slots}, given the next one when it has none. */
    static int slot(String name, Map<String, Integer> slots) {
        return slots.computeIfAbsent(name, k -> slots.size());
    }

    // ---- per stream ----

    /**
     * Evaluates rows of one stream: {@link #evaluate} answers {@link #REJECT}, {@link #PASS} (then
     * {@link #value()}) or {@link #DECLINE}. Not thread-safe; reuses its slot arrays per row.
     */
    public final class Evaluator implements LogfmtBytes.Sink, JsonFlattenBytes.Sink {
        private final Map<String, String> streamLabels;
        /** Per slot: the stream label's value when the stream has the label (the parser cannot change it). */
        private final String[] constant;
        private final byte[][] constantBytes;
        /** Per slot: the keys whose pairs land on it (sanitised names, or a parameter's expression), else null. */
        private final byte[][][] keys;
        private final boolean sanitizeKeys;
        /** The walk of a {@code json} parser without parameters, else null. */
        private final JsonFlattenBytes flatten;
        /** The walk of a {@code json} parser with parameters, else null, and the slot each parameter fills (or -1). */
        private final JsonPathBytes jsonPaths;
        private final int[] paramSlots;
        /** Set by the JSON walk when a read label's value holds escapes: the row path then decodes it. */
        private boolean escapedJson;
        private final boolean dropEmpty;
        // the current row
        private byte[] line;
        private final int[] start;
        private final int[] end;
        private final boolean[] escaped;
        private final String[] strings;
        /**
         * Per slot, on tokens: the row token its value is exactly (-1: not one whole token, or not a range of the
         * row's tokens), and whether its range is still a skeleton range whose bytes {@link #materialize} copies.
         */
        private final int[] valueToken;
        private final boolean[] lazy;
        /**
         * Per slot: whether its value is the row's structured metadata ({@link #metadata}), which a parser's pair of
         * the name replaces (the row path's parsed labels take precedence over metadata); the row's metadata values
         * and their keys, for a row run row at a time.
         */
        private final boolean[] fromMetadata;
        private final String[] rowMetadata;
        private final String[] metadataKeys;
        private boolean metadataSlots;
        /** Whether a label filter, group or unwrap read a value that structured metadata gave. */
        private boolean metadataRead;
        /** The cursor whose row the lazy ranges belong to (it stays on the row until the next one is read). */
        private TokenizedLines lazyTokens;
        private int unfilled;
        /** Whether every read label is set: later pairs matter only if one is {@code __error__}. */
        private final java.util.function.BooleanSupplier satisfied = () -> unfilled == 0;
        /** Set by the walk when a key lands on {@code __error__}: the row path then fails or filters the line. */
        private boolean errorKey;
        /**
         * Whether a parser set the row's error (a {@code json} stage on a line that opens no object) and no {@code
         * drop} removed it since; a row ending with it is run row at a time, which fails or keeps it as it should.
         */
        private boolean errorSet;
        /** Whether a parser set the row's error at some stage: a label filter reading an error label then defers. */
        private boolean errorEver;
        private boolean numberFailed;
        private double value;
        private RowSampler sampler;
        private long bytesRows;
        private long tokenRows;
        private long decodedRows;
        /** The cursor of the row being evaluated on tokens, else null (the row is on bytes). */
        private TokenizedLines tokens;
        /** The cursor {@link #tokenMasks} belong to. */
        private TokenizedLines maskedTokens;
        /** Per dictionary token of {@link #maskedTokens}: its key slot mask ({@link #keyMask}), or 0 when unknown. */
        private long[] tokenMasks;
        /** The group slots the parser may set for this stream (not stream labels), with their names. */
        private final int[] rowGroupSlots;
        private final String[] rowGroupNames;
        /** Group key (the row's values, see {@link #group()}) to group id, and each group's labels by id. */
        private final Map<String, Integer> groupIds = new HashMap<>();
        private final List<Map<String, String>> groupLabels = new ArrayList<>();
        /** Whether the row evaluated last was run row at a time (its labels are then the sampler's). */
        private boolean rowDecoded;
        /** With one group slot: the first values seen (unescaped bytes) and their groups, and the group of none. */
        private final byte[][] groupValues = new byte[16][];
        private final int[] groupValueIds = new int[16];
        private int groupValueCount;
        private int absentGroup = -1;
        /** Rows {@link #skip} was tried on and rejected; it stops being tried when it rejects too few. */
        private long skipTries;
        private long skipRejected;
        private boolean skipWorthIt = true;
        /** Whether {@link #skip} applies to this stream (its key is not a stream label). */
        private boolean skipping;
        /** In {@link #maskedTokens}' dictionary: the ids of {@link #skip}'s key and of "=", or -1. */
        private int skipKeyId;
        /** Whether {@link #absentSkip} applies to this stream (only the line's pair of its key sets the label). */
        private boolean absentSkipping;
        /**
         * And to rows that open JSON: {@code json} without parameters sets the key only from a top-level member of
         * that name, with parameters only where one names the key's label.
         */
        private boolean absentInJson;
        /** In {@link #maskedTokens}' dictionary: the id of {@link #absentSkip}'s key, or -1. */
        private int absentKeyId;
        /**
         * Per kind of row ({@link #absent}): rows {@link #absentSkip} was tried on and rejected; it stops being tried
         * when it rejects too few.
         */
        private final long[] absentTries = new long[2];
        private final long[] absentRejected = new long[2];
        private final boolean[] absentWorthIt = {true, true};
        private int skipEqualsId;
        /** Rows answered without a walk: rejected by {@link #skip} or unwrapped by {@link TokenizedLines#keyNumber}. */
        private long skippedRows;
        /** Whether {@link #unwrapKey} applies to this stream (not a stream label), and its id in the block. */
        private boolean unwrapping;
        private int unwrapKeyId;

        private Evaluator(Map<String, String> streamLabels) {
            this.streamLabels = streamLabels;
            int n = names.length;
            constant = new String[n];
            constantBytes = new byte[n][];
            keys = new byte[n][][];
            start = new int[n];
            end = new int[n];
            escaped = new boolean[n];
            strings = new String[n];
            valueToken = new int[n];
            lazy = new boolean[n];
            fromMetadata = new boolean[n];
            rowMetadata = new String[n];
            metadataKeys = new String[n];
            sanitizeKeys = parser != null && (logfmt == null || logfmt.params().isEmpty());
            dropEmpty = logfmt != null && sanitizeKeys && !logfmt.keepEmpty();
            flatten = json != null && json.params().isEmpty() ? new JsonFlattenBytes() : null;
            jsonPaths = json != null && !json.params().isEmpty() ? jsonPaths(json.params()) : null;
            paramSlots = jsonPaths == null ? null : paramSlots(json.params());
            List<Integer> gs = new ArrayList<>();
            for (int g = 0; g < groupSlots.length; g++) {
                if (!streamLabels.containsKey(groupNames[g])) {
                    gs.add(g);
                }
            }
            rowGroupSlots = new int[gs.size()];
            rowGroupNames = new String[gs.size()];
            for (int i = 0; i < rowGroupSlots.length; i++) {
                rowGroupSlots[i] = groupSlots[gs.get(i)];
                rowGroupNames[i] = groupNames[gs.get(i)];
            }
            for (int s = 0; s < n; s++) {
                String name = names[s];
                String v = streamLabels.get(name);
                if (v != null) {
                    constant[s] = v;
                    constantBytes[s] = v.getBytes(StandardCharsets.UTF_8);
                } else if (parser != null) {
                    keys[s] = sources(name);
                }
            }
            skipping = skip != null && constant[skip.slot()] == null && keys[skip.slot()] != null
                    && keys[skip.slot()].length == 1 && Arrays.equals(keys[skip.slot()][0], skip.key());
            absentSkipping = absentSkip != null && constant[absentSkip.slot()] == null
                    && keys[absentSkip.slot()] != null && keys[absentSkip.slot()].length == 1
                    && Arrays.equals(keys[absentSkip.slot()][0], absentSkip.key());
            absentInJson = absentSkipping && (jsonPaths == null
                    || Arrays.stream(paramSlots).noneMatch(slot -> slot == absentSkip.slot()));
            // the other slots are group slots (no label filter): fine while the parser sets none of them here
            unwrapping = unwrapKey != null && rowGroupSlots.length == 0 && constant[unwrapSlot] == null
                    && keys[unwrapSlot] != null && keys[unwrapSlot].length == 1
                    && Arrays.equals(keys[unwrapSlot][0], unwrapKey);
        }

        /**
         * The slot the structured-metadata key {@code key} lands on for this stream ({@code key_extracted} when a
         * stream label has the name, as the row path renames it), or -1 when the pipeline reads no such label (or it
         * is an error label, which metadata cannot stand for here); a caller then hands each row's value of the key
         * to {@link #metadata} before evaluating the row.
         */
        public int metadataSlot(String key) {
            if (LineLabels.isError(key)) {
                return -1;
            }
            String name = streamLabels.containsKey(key) ? key + LineLabels.DUPLICATE_SUFFIX : key;
            for (int s = 0; s < names.length; s++) {
                if (names[s].equals(name) && constant[s] == null) {
                    metadataKeys[s] = key;
                    metadataSlots = true;
                    // the token shortcuts assume the line alone sets the label
                    skipping = skipping && skip.slot() != s;
                    absentSkipping = absentSkipping && absentSkip.slot() != s;
                    absentInJson = absentInJson && absentSkipping;
                    unwrapping = unwrapping && unwrapSlot != s;
                    return s;
                }
            }
            return -1;
        }

        /**
         * The next row's value of the metadata key of {@code slot} ({@link #metadataSlot}), null when it has none; set
         * before each row for every slot {@link #metadataSlot} gave.
         */
        public void metadata(int slot, String value) {
            rowMetadata[slot] = value;
        }

        /** Whether a value read for a label filter, group or unwrap came from structured metadata. */
        public boolean referencedMetadata() {
            return metadataRead;
        }

        /** Whether a parser set the row's error at some stage (a label filter reading an error label then defers). */
        boolean errorEver() {
            return errorEver;
        }

        /** Whether the last {@link #number} did not parse. */
        boolean numberFailed() {
            return numberFailed;
        }

        /** Resets the row's slots and puts its metadata values in them, where parsers may replace them. */
        private void startRow() {
            Arrays.fill(start, -1);
            Arrays.fill(strings, null);
            Arrays.fill(lazy, false);
            errorSet = false;
            errorEver = false;
            if (!metadataSlots) {
                return;
            }
            for (int s = 0; s < rowMetadata.length; s++) {
                String v = rowMetadata[s];
                fromMetadata[s] = v != null;
                if (v != null) {
                    start[s] = 0;
                    end[s] = 0;
                    escaped[s] = true; // not a range of the line: every read goes through strings[s]
                    strings[s] = v;
                }
            }
        }

        /** Whether a parser already set the slot's label this row (metadata is replaced, not kept). */
        private boolean parsed(int slot) {
            return start[slot] >= 0 && !fromMetadata[slot];
        }

        /** A parser sets the slot: what metadata put there goes. */
        private void replaceMetadata(int slot) {
            if (fromMetadata[slot]) {
                fromMetadata[slot] = false;
                strings[slot] = null;
            }
        }

        private void noteRead(int slot) {
            if (fromMetadata[slot]) {
                metadataRead = true;
            }
        }

        /** The row's metadata the pipeline reads, for the row-at-a-time sampler. */
        private Map<String, String> rowMetadataMap() {
            if (!metadataSlots) {
                return Map.of();
            }
            Map<String, String> out = new HashMap<>();
            for (int s = 0; s < rowMetadata.length; s++) {
                if (rowMetadata[s] != null) {
                    out.put(metadataKeys[s], rowMetadata[s]);
                }
            }
            return out;
        }

        private static JsonPathBytes jsonPaths(List<Stage.LabelExtraction> params) {
            List<List<String>> paths = new ArrayList<>();
            for (Stage.LabelExtraction p : params) {
                paths.add(JsonPath.parse(p.expression()).steps().stream().map(String.class::cast).toList());
            }
            return new JsonPathBytes(paths);
        }

        /**
         * Per parameter, the slot its value lands on (its label, {@code _extracted} when a stream label has the name),
         * or -1 when no slot reads it or an earlier parameter lands there first (the row path keeps the first value).
         */
        private int[] paramSlots(List<Stage.LabelExtraction> params) {
            int[] out = new int[params.size()];
            Set<Integer> claimed = new java.util.HashSet<>();
            for (int i = 0; i < out.length; i++) {
                String label = params.get(i).label();
                String name = streamLabels.containsKey(label) ? label + LineLabels.DUPLICATE_SUFFIX : label;
                out[i] = -1;
                for (int s = 0; s < names.length; s++) {
                    if (names[s].equals(name)) {
                        out[i] = claimed.add(s) ? s : -1;
                        break;
                    }
                }
            }
            return out;
        }

        /**
         * After a walk of {@link #jsonPaths} covered the line: each parameter's value into its slot unless an earlier
         * parser filled it; false when a value holds escapes, which the row path then reads.
         */
        private boolean paramValues(int offset) {
            for (int i = 0; i < paramSlots.length; i++) {
                int s = paramSlots[i];
                if (s < 0 || parsed(s)) {
                    continue;
                }
                replaceMetadata(s);
                int kind = jsonPaths.kind(i);
                if (kind == JsonPathBytes.MISSING || kind == JsonPathBytes.NULL) {
                    start[s] = offset; // present and empty, as the row path sets a missing path's label to ""
                    end[s] = offset;
                } else if (kind == JsonPathBytes.PLAIN || kind == JsonPathBytes.LITERAL) {
                    start[s] = jsonPaths.valueStart(i);
                    end[s] = jsonPaths.valueEnd(i);
                } else {
                    return false;
                }
                escaped[s] = false;
            }
            return true;
        }

        /** The id of the dictionary token of {@code rows} that is exactly {@code want}, or -1. */
        private static int tokenId(TokenizedLines rows, byte[] want) {
            byte[] d = rows.dictionary();
            for (int id = 0; id < rows.tokens(); id++) {
                int from = rows.tokenStart(id);
                if (Arrays.equals(d, from, from + rows.tokenLength(id), want, 0, want.length)) {
                    return id;
                }
            }
            return -1;
        }

        /** The keys of the parser whose pairs would be stored under {@code name} (not a stream label). */
        private byte[][] sources(String name) {
            Set<String> out = new LinkedHashSet<>();
            String base = name.endsWith(LineLabels.DUPLICATE_SUFFIX)
                    ? name.substring(0, name.length() - LineLabels.DUPLICATE_SUFFIX.length()) : null;
            boolean renamedBase = base != null && streamLabels.containsKey(base);
            if (sanitizeKeys) {
                out.add(name);
                if (renamedBase) {
                    out.add(base);
                }
            } else {
                Map<String, String> wanted = new LinkedHashMap<>();
                for (Stage.LabelExtraction p : logfmt.params()) {
                    wanted.put(p.expression(), p.label());
                }
                for (Map.Entry<String, String> e : wanted.entrySet()) {
                    if (e.getValue().equals(name) || renamedBase && e.getValue().equals(base)) {
                        out.add(e.getKey());
                    }
                }
            }
            if (out.isEmpty()) {
                return null;
            }
            byte[][] bytes = new byte[out.size()][];
            int i = 0;
            for (String k : out) {
                bytes[i++] = k.getBytes(StandardCharsets.UTF_8);
            }
            return bytes;
        }

        /** Evaluates the row at {@code ts} whose line is [{@code offset}, {@code offset + length}) of {@code bytes}. */
        public int evaluate(long ts, byte[] bytes, int offset, int length) {
            line = bytes;
            lazyTokens = null;
            startRow();
            int verdict = onBytes(bytes, offset, length);
            rowDecoded = verdict == UNSURE;
            if (verdict != UNSURE) {
                bytesRows++;
                return verdict;
            }
            decodedRows++;
            return onRow(ts, new String(bytes, offset, length, StandardCharsets.UTF_8));
        }

        /**
         * Evaluates the row at {@code ts} that {@code rows} reads next (and reads it); only for a pipeline that runs
         * {@link #onTokens()}.
         */
        public int evaluate(long ts, TokenizedLines rows) {
            if (maskedTokens != rows) {
                maskedTokens = rows;
                tokenMasks = new long[rows.tokens()];
                absentKeyId = absentSkipping ? tokenId(rows, absentSkip.key()) : -1;
                if (skipping || unwrapping) {
                    skipKeyId = skipping ? tokenId(rows, skip.key()) : -1;
                    skipEqualsId = tokenId(rows, EQUALS);
                    unwrapKeyId = unwrapping ? tokenId(rows, unwrapKey) : -1;
                }
            }
            if (unwrapping) {
                long number = rows.keyNumber(unwrapKeyId, skipEqualsId);
                if (number != TokenizedLines.UNSURE) {
                    rowDecoded = false;
                    tokenRows++;
                    skippedRows++;
                    if (number == TokenizedLines.ABSENT) {
                        return REJECT; // no sample, as the row path
                    }
                    value = number;
                    return PASS;
                }
            }
            if (skipping && skipWorthIt) {
                skipTries++;
                if (rows.skipRowUnlessKeyNumber(skipKeyId, skipEqualsId, skip.keeps())) {
                    rowDecoded = false;
                    tokenRows++;
                    skippedRows++;
                    skipRejected++;
                    return REJECT;
                }
                // a row it cannot reject is read twice (up to the key's value): when it rejects under a quarter of
                // the rows, trying costs more than it saves
                if (skipTries >= 512 && skipRejected * 4 < skipTries) {
                    skipWorthIt = false;
                }
            }
            boolean emptyRow = false;
            if (json != null) {
                int first = rows.firstByte();
                if (jsonPaths != null ? JsonPathBytes.byFirstByte(first) == JsonPathBytes.UNSURE
                        : !JsonFlattenBytes.opensNoObject(first)) {
                    // json may read this line: rebuild it and run it on its bytes, unless no parser can set the
                    // filtered key (json's member names may spell it with escapes)
                    if (absentInJson && absentWorthIt[1] && absent(rows, 1, jsonPaths == null)) {
                        return REJECT;
                    }
                    int length = rows.readRowBytes();
                    return evaluate(ts, rows.scratch(), 0, length);
                }
                emptyRow = first == -1;
            }
            if (absentSkipping && absentWorthIt[0] && absent(rows, 0, false)) {
                return REJECT;
            }
            lazyTokens = rows;
            tokens = rows;
            startRow();
            int verdict;
            try {
                verdict = onTokens(rows, emptyRow);
            } finally {
                tokens = null;
            }
            rowDecoded = verdict == UNSURE;
            if (verdict != UNSURE) {
                tokenRows++;
                return verdict;
            }
            decodedRows++;
            return onRow(ts, rows.line());
        }

        /**
         * Whether {@link #absentSkip} rejects the row {@code rows} reads next (then read): it holds no token of the key
         * (nor, with {@code escapes}, a backslash), or it opens no JSON and no logfmt stage could read the key ({@code
         * kind} 0: rows that open no JSON, 1: rows that may). A row it keeps is read twice: when it rejects under a
         * quarter of the rows of its kind, trying costs more than it saves, and it stops for that kind.
         */
        private boolean absent(TokenizedLines rows, int kind, boolean escapes) {
            absentTries[kind]++;
            if (rows.skipRowWithout(kind == 0 && logfmt == null ? -1 : absentKeyId, escapes)) {
                rowDecoded = false;
                tokenRows++;
                skippedRows++;
                absentRejected[kind]++;
                return true;
            }
            if (absentTries[kind] >= ABSENT_TRIALS[kind] && absentRejected[kind] * 4 < absentTries[kind]) {
                absentWorthIt[kind] = false;
            }
            return false;
        }

        /**
         * The steps on the row {@code rows} reads next, which is read (and walked, for logfmt) whatever they answer; a
         * {@code json} step meets a row that opens no JSON ({@code emptyRow}: an empty one).
         */
        private int onTokens(TokenizedLines rows, boolean emptyRow) {
            boolean read = false;
            int verdict = PASS;
            line = rows.values();
            for (Object step : steps) {
                if (step instanceof LabelTest t) {
                    int x = t.test(this);
                    if (x != TRUE) {
                        verdict = x == FALSE ? REJECT : UNSURE;
                        break;
                    }
                } else if (step == ERROR_DROP) {
                    errorSet = false; // logfmt sets no error here (a key landing on __error__ defers)
                } else if (step instanceof Stage.Json) {
                    // the row opens no JSON: the parser sets its error and no label, as on the bytes (with parameters,
                    // an empty line gets neither)
                    if (jsonPaths == null || !emptyRow) {
                        errorSet = true;
                        errorEver = true;
                    }
                } else {
                    startWalk();
                    read = true;
                    int status = rows.walkLogfmt(logfmt.strict(), this, satisfied);
                    line = rows.values(); // appending values may have grown it
                    if (status == LogfmtBytes.MALFORMED || errorKey) {
                        return UNSURE;
                    }
                }
            }
            if (!read) {
                rows.readRow();
            }
            if (verdict != PASS) {
                return verdict;
            }
            return finish(unwrapSlot < 0 && (op == RangeOp.BYTES_OVER_TIME || op == RangeOp.BYTES_RATE)
                    ? rows.rowLength() : 0);
        }

        /** Before a logfmt walk: the read labels no earlier parser set. */
        private void startWalk() {
            unfilled = 0;
            for (int s = 0; s < keys.length; s++) {
                unfilled += keys[s] != null && !parsed(s) ? 1 : 0;
            }
            errorKey = false;
        }

        private int onBytes(byte[] bytes, int offset, int length) {
            for (Object step : steps) {
                if (step instanceof LineFilterBytes f) {
                    if (!f.test(bytes, offset, length)) {
                        return REJECT;
                    }
                } else if (step instanceof LabelTest t) {
                    int x = t.test(this);
                    if (x != TRUE) {
                        return x == FALSE ? REJECT : UNSURE;
                    }
                } else if (step instanceof CaptureParser p) {
                    String decoded = new String(bytes, offset, length, StandardCharsets.UTF_8);
                    p.extract(decoded, this::captured);
                } else if (step == ERROR_DROP) {
                    errorSet = false;
                } else if (step instanceof Stage.Json && jsonPaths != null) {
                    int status = jsonPaths.walk(bytes, offset, length);
                    if (status == JsonPathBytes.NOT_JSON) {
                        errorSet = true; // no label extracted: the stages after it run as on the row path
                        errorEver = true;
                    } else if (status == JsonPathBytes.UNSURE || status == JsonPathBytes.DONE && !paramValues(offset)) {
                        return UNSURE;
                    }
                } else if (step instanceof Stage.Json) {
                    errorKey = false;
                    escapedJson = false;
                    int status = flatten.walk(bytes, offset, length, this);
                    if (status == JsonFlattenBytes.NOT_OBJECT) {
                        errorSet = true; // no label extracted: the stages after it run as on the row path
                        errorEver = true;
                    } else if (status == JsonFlattenBytes.UNSURE || errorKey || escapedJson) {
                        return UNSURE;
                    }
                } else {
                    startWalk();
                    if (LogfmtBytes.walk(bytes, offset, length, logfmt.strict(), this) == LogfmtBytes.MALFORMED
                            || errorKey) {
                        return UNSURE;
                    }
                }
            }
            return finish(length);
        }

        /** After the stages passed: the row's sample (a count, its {@code length}, or the unwrapped value). */
        private int finish(int length) {
            if (errorSet) {
                return UNSURE; // the row path fails the query, or keeps the error where the result allows it
            }
            if (unwrapSlot < 0) {
                value = op == RangeOp.BYTES_OVER_TIME || op == RangeOp.BYTES_RATE ? length : 1;
                return PASS;
            }
            if (!present(unwrapSlot) || emptyValue(unwrapSlot)) {
                return REJECT; // no sample, as the row path
            }
            double v = unwrapped(unwrapSlot);
            if (numberFailed) {
                return UNSURE;
            }
            for (LabelTest t : post) {
                int x = t.test(this);
                if (x != TRUE) {
                    return x == FALSE ? REJECT : UNSURE;
                }
            }
            value = v;
            return PASS;
        }

        private int onRow(long ts, String row) {
            if (sampler == null) {
                sampler = new RowSampler(range, op, true);
            }
            if (!sampler.sample(ts, row, streamLabels, rowMetadataMap())) {
                return REJECT;
            }
            if (sampler.labels().hasError() && (!sampler.preservesErrors() || grouped == null)) {
                return DECLINE;
            }
            value = sampler.value();
            return PASS;
        }

        /** The value of the last row that passed. */
        public double value() {
            return value;
        }

        /** Rows answered on their bytes so far. */
        public long bytesRows() {
            return bytesRows;
        }

        /**
         * Whether rows of this stream fall into groups by parsed labels ({@link #group()}); when false every row
         * that passes belongs to the stream's own series.
         */
        public boolean grouping() {
            return rowGroupSlots.length > 0;
        }

        /**
         * The group of the row that passed last, a dense id from 0: rows of one group have equal values (or equal
         * absence) of every {@code by} label the parser sets.
         */
        public int group() {
            if (rowGroupSlots.length == 1 && !rowDecoded) {
                int slot = rowGroupSlots[0]; // never a stream label: those are left out of the row groups
                if (start[slot] < 0) {
                    if (absentGroup < 0) {
                        absentGroup = groupByStrings();
                    }
                    return absentGroup;
                }
                if (!escaped[slot]) {
                    // a label of few values (status, level): its bytes find the group without a String per row
                    materialize(slot);
                    for (int i = 0; i < groupValueCount; i++) {
                        byte[] v = groupValues[i];
                        if (Arrays.equals(line, start[slot], end[slot], v, 0, v.length)) {
                            return groupValueIds[i];
                        }
                    }
                    int id = groupByStrings();
                    if (groupValueCount < groupValues.length) {
                        groupValues[groupValueCount] = Arrays.copyOfRange(line, start[slot], end[slot]);
                        groupValueIds[groupValueCount++] = id;
                    }
                    return id;
                }
            }
            return groupByStrings();
        }

        private int groupByStrings() {
            StringBuilder key = new StringBuilder();
            String[] values = new String[rowGroupSlots.length];
            for (int i = 0; i < rowGroupSlots.length; i++) {
                String v = rowDecoded ? sampler.labels().get(rowGroupNames[i]) : string(rowGroupSlots[i]);
                values[i] = v;
                // absent and present values cannot collide: a present one is prefixed with '=', each ends in 0
                key.append(v == null ? "!" : "=" + v.length() + ":" + v).append('\0');
            }
            Integer id = groupIds.get(key.toString());
            if (id == null) {
                id = groupLabels.size();
                groupIds.put(key.toString(), id);
                Map<String, String> labels = new LinkedHashMap<>();
                for (int i = 0; i < values.length; i++) {
                    if (values[i] != null) {
                        labels.put(rowGroupNames[i], values[i]);
                    }
                }
                groupLabels.add(Map.copyOf(labels));
            }
            return id;
        }

        /** The parsed {@code by} labels of group {@code id} (an absent label is left out). */
        public Map<String, String> groupLabels(int id) {
            return groupLabels.get(id);
        }

        /** Rows answered on their tokens so far. */
        public long tokenRows() {
            return tokenRows;
        }

        /** Rows the number skip was tried on (it stops once it rejects too few). */
        long skipTries() {
            return skipTries;
        }

        /** Rows of {@link #tokenRows()} answered on their tokens without a logfmt walk. */
        public long skippedRows() {
            return skippedRows;
        }

        /** Rows that were decoded and run row at a time so far. */
        public long decodedRows() {
            return decodedRows;
        }

        @Override
        public boolean pair(byte[] b, int keyStart, int keyEnd, int valueStart, int valueEnd, boolean esc,
                boolean standalone) {
            if (dropEmpty && valueEnd == valueStart) {
                return true; // a skeleton range is empty exactly when its line range is
            }
            if (tokens != null) {
                return tokenPair(keyStart, keyEnd, valueStart, valueEnd, esc);
            }
            if (sanitizeKeys && keyEnd - keyStart >= ERROR_KEY.length - 1
                    && LabelBytes.sanitizedEquals(b, keyStart, keyEnd, ERROR_KEY)) {
                errorKey = true;
                return false;
            }
            if (unfilled == 0) {
                return true; // every read label is set; later keys matter only if one is __error__
            }
            for (int s = 0; s < keys.length; s++) {
                byte[][] k = keys[s];
                if (k == null || parsed(s)) {
                    continue;
                }
                for (byte[] key : k) {
                    if (sanitizeKeys ? LabelBytes.sanitizedEquals(b, keyStart, keyEnd, key)
                            : Arrays.equals(b, keyStart, keyEnd, key, 0, key.length)) {
                        replaceMetadata(s);
                        start[s] = valueStart;
                        end[s] = valueEnd;
                        escaped[s] = esc;
                        unfilled--;
                        break;
                    }
                }
            }
            return true;
        }

        /** {@link #pair} on a row's skeleton: the key matched through its token's cached mask, the value copied. */
        private boolean tokenPair(int keyStart, int keyEnd, int valueStart, int valueEnd, boolean esc) {
            long mask;
            int id = tokens.pairKeyId();
            if (id >= 0) {
                mask = tokenMasks[id];
                if (mask == 0) {
                    mask = tokenMasks[id] = keyMask(tokens.dictionary(), tokens.tokenStart(id),
                            tokens.tokenStart(id) + tokens.tokenLength(id)) | KNOWN_BIT;
                }
                mask &= ~KNOWN_BIT;
            } else {
                int n = tokens.scratch(keyStart, keyEnd);
                mask = keyMask(tokens.scratch(), 0, n);
            }
            if ((mask & ERROR_BIT) != 0) {
                errorKey = true;
                return false;
            }
            if (unfilled == 0) {
                return true;
            }
            for (int s = 0; mask != 0 && s < keys.length; s++, mask >>>= 1) {
                if ((mask & 1) != 0 && !parsed(s)) {
                    replaceMetadata(s);
                    start[s] = valueStart;
                    end[s] = valueEnd;
                    lazy[s] = true;
                    valueToken[s] = tokens.pairValueToken();
                    escaped[s] = esc;
                    unfilled--;
                }
            }
            return true;
        }

        /**
         * The slots a pair with key [{@code from}, {@code to}) of {@code b} fills when empty (bit s for slot s) and
         * {@link #ERROR_BIT} when the key lands on {@code __error__}, as {@link #pair} decides on bytes.
         */
        private long keyMask(byte[] b, int from, int to) {
            long mask = 0;
            if (sanitizeKeys && to - from >= ERROR_KEY.length - 1
                    && LabelBytes.sanitizedEquals(b, from, to, ERROR_KEY)) {
                mask |= ERROR_BIT;
            }
            for (int s = 0; s < keys.length; s++) {
                byte[][] k = keys[s];
                if (k == null) {
                    continue;
                }
                for (byte[] key : k) {
                    if (sanitizeKeys ? LabelBytes.sanitizedEquals(b, from, to, key)
                            : Arrays.equals(b, from, to, key, 0, key.length)) {
                        mask |= 1L << s;
                        break;
                    }
                }
            }
            return mask;
        }

        /** A capture of a regexp or pattern stage: kept, first value wins, when a read label's source. */
        private void captured(String name, String capture) {
            byte[] key = name.getBytes(StandardCharsets.UTF_8);
            for (int s = 0; s < keys.length; s++) {
                byte[][] k = keys[s];
                if (k == null || parsed(s)) {
                    continue;
                }
                for (byte[] candidate : k) {
                    if (Arrays.equals(key, candidate)) {
                        replaceMetadata(s);
                        start[s] = 0;
                        end[s] = 0;
                        escaped[s] = true; // not a range of the line: every read goes through strings[s]
                        strings[s] = capture;
                        break;
                    }
                }
            }
        }

        @Override
        public void field(byte[] key, int keyLength, byte[] b, int valueStart, int valueEnd, int kind) {
            if (keyLength == ERROR_KEY.length && Arrays.equals(key, 0, keyLength, ERROR_KEY, 0, keyLength)) {
                errorKey = true;
                return;
            }
            for (int s = 0; s < keys.length; s++) {
                byte[][] k = keys[s];
                if (k == null || parsed(s)) {
                    continue;
                }
                for (byte[] candidate : k) {
                    if (Arrays.equals(key, 0, keyLength, candidate, 0, candidate.length)) {
                        replaceMetadata(s);
                        if (kind == JsonFlattenBytes.ESCAPED) {
                            escapedJson = true;
                        }
                        start[s] = valueStart;
                        end[s] = kind == JsonFlattenBytes.NULL ? valueStart : valueEnd;
                        escaped[s] = false;
                        break;
                    }
                }
            }
        }

        boolean present(int slot) {
            noteRead(slot);
            return constant[slot] != null || start[slot] >= 0;
        }

        /** Copies a lazy slot's line bytes into the cursor's values, where its range then points. */
        private void materialize(int slot) {
            if (lazy[slot]) {
                lazy[slot] = false;
                start[slot] = lazyTokens.append(start[slot], end[slot]);
                end[slot] = lazyTokens.valuesLength();
                line = lazyTokens.values();
            }
        }

        /** A lazy slot's value when it is one number token (see {@link TokenizedLines#number}), else Long.MIN_VALUE. */
        private long tokenNumber(int slot) {
            return lazy[slot] && valueToken[slot] >= 0 ? lazyTokens.number(valueToken[slot]) : Long.MIN_VALUE;
        }

        /** Whether the slot's value is empty (a skeleton range is empty exactly when its line range is). */
        private boolean emptyValue(int slot) {
            return constant[slot] != null ? constant[slot].isEmpty()
                    : strings[slot] != null ? strings[slot].isEmpty() : end[slot] == start[slot];
        }

        /** The slot's value, or null when the row does not have the label. */
        String string(int slot) {
            noteRead(slot);
            if (constant[slot] != null) {
                return constant[slot];
            }
            if (start[slot] < 0) {
                return null;
            }
            materialize(slot);
            if (strings[slot] == null) {
                strings[slot] = escaped[slot] ? LogfmtBytes.unescape(line, start[slot], end[slot])
                        : new String(line, start[slot], end[slot] - start[slot], StandardCharsets.UTF_8);
            }
            return strings[slot];
        }

        /** Whether the slot's value (a missing label reads as "") equals {@code want}. */
        boolean valueEquals(int slot, byte[] want) {
            noteRead(slot);
            if (constant[slot] != null) {
                return Arrays.equals(constantBytes[slot], want);
            }
            if (start[slot] < 0) {
                return want.length == 0;
            }
            materialize(slot);
            if (escaped[slot]) {
                return string(slot).equals(new String(want, StandardCharsets.UTF_8));
            }
            return Arrays.equals(line, start[slot], end[slot], want, 0, want.length);
        }

        /** The slot's value as a label filter's number; NaN with {@link #numberFailed} when it does not parse. */
        double number(int slot) {
            numberFailed = false;
            if (constant[slot] == null && !escaped[slot]) {
                long number = tokenNumber(slot);
                if (number != Long.MIN_VALUE) {
                    return number;
                }
                materialize(slot);
                long digits = LabelBytes.digits(line, start[slot], end[slot]);
                if (digits != Long.MIN_VALUE) {
                    return digits;
                }
            }
            try {
                return GoStrings.parseFloat(string(slot));
            } catch (IllegalArgumentException e) {
                numberFailed = true;
                return Double.NaN;
            }
        }

        /** The slot's value as the unwrap converts it; {@link #numberFailed} when it does not convert. */
        private double unwrapped(int slot) {
            numberFailed = false;
            Unwrap u = range.unwrap();
            if (u.conversion() == SampleExpr.UnwrapConversion.NONE && constant[slot] == null && !escaped[slot]) {
                long number = tokenNumber(slot);
                if (number != Long.MIN_VALUE) {
                    return number;
                }
                materialize(slot);
                long digits = LabelBytes.digits(line, start[slot], end[slot]);
                if (digits != Long.MIN_VALUE) {
                    return digits;
                }
            }
            try {
                return RowSampler.convert(u, string(slot));
            } catch (IllegalArgumentException e) {
                numberFailed = true;
                return 0;
            }
        }
    }
}
