package io.logbloom.api;

import java.util.Map;
import java.util.Objects;

/**
 * Expands environment references in the raw text of a YAML config file before it is parsed, like
 * Loki's {@code -config.expand-env=true} (which is always on here): {@code ${VAR}} is replaced by
 * the variable's value, {@code ${VAR:-default}} by the default when the variable is unset or empty,
 * and {@code $$} is a literal {@code $}. A {@code $} followed by anything else stays as it is. An
 * unset variable without a default is an error naming the variable and its line, rather than a
 * silent empty string. Immutable and thread-safe.
 */
public final class EnvExpander {
    private final Map<String, String> environment;

    /** An expander reading variables from {@code environment} (normally {@code System.getenv()}). */
    public EnvExpander(Map<String, String> environment) {
        this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment is null"));
    }

    /** The text with every reference replaced; throws ConfigException naming an unset variable or a bad reference. */
    public String expand(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int line = 1;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\n') {
                line++;
            }
            if (c != '$' || i + 1 >= text.length()) {
                out.append(c);
                i++;
                continue;
            }
            char next = text.charAt(i + 1);
            if (next == '$') {
                out.append('$');
                i += 2;
                continue;
            }
            if (next != '{') {
                out.append(c);
                i++;
                continue;
            }
            int close = text.indexOf('}', i + 2);
            int newline = text.indexOf('\n', i + 2);
            if (close < 0 || (newline >= 0 && newline < close)) {
                throw new ConfigException("config line " + line + ": unterminated environment reference starting at '"
                        + text.substring(i, newline < 0 ? text.length() : newline) + "'");
            }
            out.append(resolve(text.substring(i + 2, close), line));
            i = close + 1;
        }
        return out.toString();
    }

    private String resolve(String reference, int line) {
        int sep = reference.indexOf(":-");
        String name = sep < 0 ? reference : reference.substring(0, sep);
        if (!isValidName(name)) {
            throw new ConfigException("config line " + line + ": invalid environment variable name '" + name
                    + "' in '${" + reference + "}'");
        }
        String value = environment.get(name);
        if (sep >= 0) {
            return value == null || value.isEmpty() ? reference.substring(sep + 2) : value;
        }
        if (value == null) {
            throw new ConfigException("config line " + line + ": environment variable " + name
                    + " is not set (use ${" + name + ":-default} to give a default)");
        }
        return value;
    }

    private static boolean isValidName(String name) {
        if (name.isEmpty() || Character.isDigit(name.charAt(0))) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
                return false;
            }
        }
        return true;
    }
}
