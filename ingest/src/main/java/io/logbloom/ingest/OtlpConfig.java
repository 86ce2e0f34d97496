package io.logbloom.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Loki's per-tenant {@code otlp_config}: which OTLP resource attributes become stream labels, and which
 * resource, scope and log attributes become structured metadata or are dropped. Rules are tried in
 * order; an attribute no rule names is structured metadata. Unless {@code ignore_defaults} is set, the
 * resource rules start with Loki's default: {@link #DEFAULT_INDEX_LABELS} as index labels. Only
 * resource attributes may be index labels, as in Loki. Immutable.
 *
 * @param resourceAttributes rules for resource attributes (defaults already prepended unless ignored)
 * @param scopeAttributes rules for instrumentation-scope attributes
 * @param logAttributes rules for log-record attributes
 * @param severityTextAsLabel whether {@code severity_text} is also a stream label
 */
public record OtlpConfig(List<Rule> resourceAttributes, List<Rule> scopeAttributes, List<Rule> logAttributes,
        boolean severityTextAsLabel) {

    /** Loki's default resource attributes stored as index labels ({@code pkg/loghttp/push/otlp_config.go}). */
    public static final List<String> DEFAULT_INDEX_LABELS = List.of("service.name", "service.namespace",
            "service.instance.id", "deployment.environment", "deployment.environment.name", "cloud.region",
            "cloud.availability_zone", "k8s.cluster.name", "k8s.namespace.name", "k8s.pod.name", "k8s.container.name",
            "container.name", "k8s.replicaset.name", "k8s.deployment.name", "k8s.statefulset.name",
            "k8s.daemonset.name", "k8s.cronjob.name", "k8s.job.name");

    /** What happens to a matching attribute. */
    public enum Action {
        /** A stream label (resource attributes only). */
        INDEX_LABEL,
        /** Structured metadata on each entry. */
        STRUCTURED_METADATA,
        /** Not stored. */
        DROP
    }

    /**
     * One rule: {@code action} for the attributes named in {@code attributes}, or matching {@code regex}
     * (exactly one of the two is given).
     */
    public record Rule(Action action, List<String> attributes, Pattern regex) {
        public Rule {
            Objects.requireNonNull(action, "action is null");
            attributes = List.copyOf(attributes);
            if (attributes.isEmpty() == (regex == null)) {
                throw new IllegalArgumentException("an otlp_config rule needs exactly one of attributes or regex");
            }
        }

        /** Equal when action, attributes and regex text are (a compiled Pattern has identity equality). */
        @Override
        public boolean equals(Object o) {
            return o instanceof Rule r && action == r.action && attributes.equals(r.attributes)
                    && Objects.equals(regexText(), r.regexText());
        }

        @Override
        public int hashCode() {
            return Objects.hash(action, attributes, regexText());
        }

        private String regexText() {
            return regex == null ? null : regex.pattern();
        }

        boolean matches(String attribute) {
            return regex != null ? regex.matcher(attribute).matches() : attributes.contains(attribute);
        }
    }

    public OtlpConfig {
        resourceAttributes = List.copyOf(resourceAttributes);
        scopeAttributes = List.copyOf(scopeAttributes);
        logAttributes = List.copyOf(logAttributes);
        for (Rule r : scopeAttributes) {
            requireNotIndex(r, "scope_attributes");
        }
        for (Rule r : logAttributes) {
            requireNotIndex(r, "log_attributes");
        }
    }

    private static void requireNotIndex(Rule r, String where) {
        if (r.action() == Action.INDEX_LABEL) {
            throw new IllegalArgumentException("index_label action is only supported for resource_attributes, not "
                    + where);
        }
    }

    /** Loki's default mapping. */
    public static OtlpConfig defaults() {
        return of(false, List.of(), List.of(), List.of(), false);
    }

    /** A config from the YAML shape: the default resource rule is prepended unless {@code ignoreDefaults}. */
    public static OtlpConfig of(boolean ignoreDefaults, List<Rule> resource, List<Rule> scope, List<Rule> log,
            boolean severityTextAsLabel) {
        List<Rule> all = new ArrayList<>();
        if (!ignoreDefaults) {
            all.add(new Rule(Action.INDEX_LABEL, DEFAULT_INDEX_LABELS, null));
        }
        all.addAll(resource);
        return new OtlpConfig(all, scope, log, severityTextAsLabel);
    }

    Action forResource(String attribute) {
        return action(resourceAttributes, attribute);
    }

    Action forScope(String attribute) {
        return action(scopeAttributes, attribute);
    }

    Action forLog(String attribute) {
        return action(logAttributes, attribute);
    }

    private static Action action(List<Rule> rules, String attribute) {
        for (Rule r : rules) {
            if (r.matches(attribute)) {
                return r.action();
            }
        }
        return Action.STRUCTURED_METADATA;
    }
}
