package io.logbloom.logql;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The labels {@code | logfmt} (lenient, without {@code --keep-empty} or parameters) extracts from a line, for callers
 * outside a query that must name fields as a query would: Logs Drilldown's detected fields are filtered and broken
 * down with {@code | logfmt | name!=""}, so a field it is offered must be a label that stage sets. Keys are sanitised
 * as the stage sanitises them (a leading digit gains a '_'), pairs with an empty value and standalone keys are
 * dropped, and a name keeps its first value. Stateless.
 */
public final class LogfmtFields {
    private LogfmtFields() {
    }

    /** The line's labels in the order they first appear. */
    public static Map<String, String> of(String line) {
        Map<String, String> out = new LinkedHashMap<>();
        Logfmt.decode(line, false, (k, v, standalone) -> {
            if (standalone || v.isEmpty()) {
                return;
            }
            String key = Pipeline.sanitize(k);
            if (!key.isEmpty()) {
                out.putIfAbsent(key, v);
            }
        });
        return out;
    }
}
