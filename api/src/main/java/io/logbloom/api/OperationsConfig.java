package io.logbloom.api;

import io.logbloom.chunks.TenantIds;
import io.logbloom.compactor.CompactorConfig;
import io.logbloom.compactor.DeletionMode;
import io.logbloom.compactor.RetentionLimits;
import io.logbloom.compactor.StreamRetention;
import io.logbloom.compactor.TenantLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The operations settings of the config file, with Loki's names: the {@code compactor:} section, the
 * retention and deletion keys of {@code limits:} ({@code retention_period}, {@code retention_stream},
 * {@code deletion_mode}) and the per-tenant {@code overrides:} of those keys (a tenant's entry takes
 * unset keys from {@code limits:}, as Loki's runtime overrides do). Immutable.
 *
 * @param compactor the compactor loop's settings
 * @param retention the retention and deletion limits per tenant
 * @param workingDirectory {@code compactor.working_directory}: accepted as in Loki but not needed (merges run
 *                         in memory); empty when unset
 * @param deleteRequestStore {@code compactor.delete_request_store}: empty or the configured storage backend
 *                           (there is one object store, which holds the delete requests)
 */
public record OperationsConfig(CompactorConfig compactor, TenantLimits retention, String workingDirectory,
        String deleteRequestStore) {
    public OperationsConfig {
        Objects.requireNonNull(compactor, "compactor is null");
        Objects.requireNonNull(retention, "retention is null");
        Objects.requireNonNull(workingDirectory, "workingDirectory is null");
        Objects.requireNonNull(deleteRequestStore, "deleteRequestStore is null");
    }

    /** Loki's defaults: compaction every 10m, retention off and forever, deletes filter-and-delete, no overrides. */
    public static OperationsConfig defaults() {
        return new OperationsConfig(CompactorConfig.defaults(), TenantLimits.uniform(RetentionLimits.defaults()), "", "");
    }

    /** Reads the sections; call before {@code limits} rejects unknown keys. Errors name the key path. */
    static OperationsConfig from(ConfigNode compactor, ConfigNode limits, ConfigNode overrides,
            LogbloomConfig.Storage storage) {
        CompactorConfig c;
        Duration interval = compactor.duration("compaction_interval", Duration.ofMinutes(10));
        boolean retentionEnabled = compactor.bool("retention_enabled", false);
        Duration deleteDelay = compactor.duration("retention_delete_delay", Duration.ofHours(2));
        Duration cancelPeriod = compactor.duration("delete_request_cancel_period",
                CompactorConfig.DEFAULT_DELETE_REQUEST_CANCEL_PERIOD);
        long smallObjectSize = compactor.bytes("small_object_size", CompactorConfig.DEFAULT_SMALL_OBJECT_SIZE_BYTES);
        String workingDirectory = compactor.string("working_directory", "");
        String deleteStore = compactor.string("delete_request_store", "");
        compactor.rejectUnknownKeys();
        try {
            c = new CompactorConfig(interval, retentionEnabled, deleteDelay, cancelPeriod, smallObjectSize);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("config compactor." + e.getMessage(), e);
        }
        String backend = storage.backend().name().toLowerCase(Locale.ROOT);
        if (!deleteStore.isEmpty() && !deleteStore.equals(backend)) {
            throw new ConfigException("config compactor.delete_request_store: '" + deleteStore
                    + "' is not the configured storage backend '" + backend + "' (delete requests live in that store)");
        }
        RetentionLimits global = limits(limits, RetentionLimits.defaults());
        Map<String, RetentionLimits> perTenant = new LinkedHashMap<>();
        for (Map.Entry<String, ConfigNode> e : overrides.sectionsByKey().entrySet()) {
            try {
                TenantIds.validate(e.getKey());
            } catch (IllegalArgumentException bad) {
                throw new ConfigException("config overrides." + e.getKey() + ": " + bad.getMessage(), bad);
            }
            RetentionLimits l = limits(e.getValue(), global);
            e.getValue().rejectUnknownKeys();
            perTenant.put(e.getKey(), l);
        }
        return new OperationsConfig(c, new TenantLimits(global, perTenant), workingDirectory, deleteStore);
    }

    /** The retention keys of one limits mapping, unset keys taken from {@code inherited}. */
    private static RetentionLimits limits(ConfigNode n, RetentionLimits inherited) {
        String where = n.path().isEmpty() ? "" : n.path() + ".";
        Duration period = n.duration("retention_period", inherited.retentionPeriod());
        String modeText = n.string("deletion_mode", inherited.deletionMode().configName());
        DeletionMode mode;
        try {
            mode = DeletionMode.parse(modeText);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("config " + where + "deletion_mode: " + e.getMessage(), e);
        }
        List<StreamRetention> streams = inherited.streams();
        List<ConfigNode> rules = n.sections("retention_stream");
        if (!rules.isEmpty() || n.has("retention_stream")) {
            streams = new ArrayList<>();
            for (ConfigNode r : rules) {
                String selector = r.string("selector", "");
                int priority = r.integer("priority", 0);
                Duration rulePeriod = r.duration("period", Duration.ZERO);
                r.rejectUnknownKeys();
                try {
                    streams.add(new StreamRetention(selector, rulePeriod, priority));
                } catch (IllegalArgumentException e) {
                    throw new ConfigException("config " + r.path() + ": " + e.getMessage(), e);
                }
            }
        }
        try {
            return new RetentionLimits(period, streams, mode);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("config " + where + e.getMessage(), e);
        }
    }

    /** The retention keys of {@code limits:} as YAML lines (indented into that section). */
    String limitsYaml() {
        return limitsYaml(retention.defaults(), "  ");
    }

    /** The {@code compactor:} and {@code overrides:} sections as YAML. */
    String sectionsYaml() {
        StringBuilder sb = new StringBuilder("compactor:\n")
                .append("  working_directory: ").append(LogbloomConfig.quote(workingDirectory)).append('\n')
                .append("  compaction_interval: ").append(ConfigNode.formatDuration(compactor.compactionInterval())).append('\n')
                .append("  retention_enabled: ").append(compactor.retentionEnabled()).append('\n')
                .append("  retention_delete_delay: ").append(ConfigNode.formatDuration(compactor.retentionDeleteDelay()))
                .append('\n')
                .append("  delete_request_cancel_period: ")
                .append(ConfigNode.formatDuration(compactor.deleteRequestCancelPeriod())).append('\n')
                .append("  small_object_size: ").append(compactor.smallObjectSizeBytes()).append('\n')
                .append("  delete_request_store: ").append(LogbloomConfig.quote(deleteRequestStore)).append('\n');
        if (retention.overrides().isEmpty()) {
            return sb.append("overrides: {}\n").toString();
        }
        sb.append("overrides:\n");
        retention.overrides().forEach((tenant, l) ->
                sb.append("  ").append(LogbloomConfig.quote(tenant)).append(":\n").append(limitsYaml(l, "    ")));
        return sb.toString();
    }

    private static String limitsYaml(RetentionLimits l, String indent) {
        StringBuilder sb = new StringBuilder()
                .append(indent).append("retention_period: ").append(ConfigNode.formatDuration(l.retentionPeriod())).append('\n')
                .append(indent).append("deletion_mode: ").append(l.deletionMode().configName()).append('\n')
                .append(indent).append("retention_stream: [");
        for (int i = 0; i < l.streams().size(); i++) {
            StreamRetention s = l.streams().get(i);
            sb.append(i > 0 ? ", " : "").append("{ selector: ").append(LogbloomConfig.quote(s.selector()))
                    .append(", priority: ").append(s.priority())
                    .append(", period: ").append(ConfigNode.formatDuration(s.period())).append(" }");
        }
        return sb.append("]\n").toString();
    }
}
