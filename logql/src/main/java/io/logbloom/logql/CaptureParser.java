package io.logbloom.logql;

import java.util.Map;

/**
 * A {@code regexp} or {@code pattern} stage of a {@link ColumnarPipeline}: it runs on the row's line decoded once
 * (no entry, no label map) and keeps only the captures the pipeline reads.
 */
record CaptureParser(RegexpParser regexp, LinePattern pattern) {
    /** The stage compiled, or null when it is invalid (the row path reports it) or captures {@code __error__}. */
    static CaptureParser of(Stage s) {
        try {
            if (s instanceof Stage.Regexp r) {
                if (r.regex().contains(LineLabels.ERROR)) {
                    return null;
                }
                return new CaptureParser(RegexpParser.compile(r.regex()), null);
            }
            String pattern = ((Stage.PatternParser) s).pattern();
            if (pattern.contains(LineLabels.ERROR)) {
                return null;
            }
            return new CaptureParser(null, LinePattern.parse(pattern, true));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    void extract(String line, java.util.function.BiConsumer<String, String> sink) {
        if (regexp != null) {
            regexp.extract(line, sink);
        } else {
            Map<String, String> m = pattern.match(line);
            if (m != null) {
                m.forEach(sink);
            }
        }
    }
}
