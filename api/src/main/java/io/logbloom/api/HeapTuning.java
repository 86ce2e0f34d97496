package io.logbloom.api;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Heap ergonomics the server sets for itself at start, so {@code java -jar logbloom.jar} gives memory
 * back after a load instead of keeping the high-water mark resident. G1 grows the heap under push
 * load (mostly short-lived request garbage) and, by default, only gives it back after a full GC;
 * JEP 346 (JDK 12) added a periodic G1 cycle for idle applications that also uncommits free regions.
 * These flags are "manageable", so they can be changed at run time through the HotSpot diagnostic
 * bean:
 *
 * <ul>
 *   <li>{@code G1PeriodicGCInterval}: a concurrent cycle after this many ms without a GC (default off);
 *   <li>{@code MinHeapFreeRatio}/{@code MaxHeapFreeRatio}: the heap is shrunk after a GC when more than
 *       the max ratio of it is free (defaults 40/70 keep up to 70 % of the heap free and committed).
 * </ul>
 *
 * A flag the operator set on the command line is left alone; on another collector or JVM nothing is
 * changed. Stateless; {@link #apply()} is meant to be called once by {@code Main}.
 */
final class HeapTuning {
    private static final Logger LOG = LoggerFactory.getLogger(HeapTuning.class);
    /** Idle time before G1's periodic cycle: long enough to never fire under load, short enough to give memory back soon after. */
    static final String PERIODIC_GC_INTERVAL_MILLIS = "15000";
    /** Keep at most 30 % of the heap free after a collection (shrink beyond that), at least 10 %. */
    static final String MIN_HEAP_FREE_PERCENT = "10";
    static final String MAX_HEAP_FREE_PERCENT = "30";

    private HeapTuning() {}

    /** Sets the flags above where the JVM runs G1 and the operator did not set them; returns what was set. */
    static Map<String, String> apply() {
        Map<String, String> applied = new LinkedHashMap<>();
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (hotspot == null || !"true".equals(value(hotspot, "UseG1GC"))) {
            return applied;
        }
        // order matters: MinHeapFreeRatio must stay at or below MaxHeapFreeRatio at every step
        set(hotspot, "MinHeapFreeRatio", MIN_HEAP_FREE_PERCENT, applied);
        set(hotspot, "MaxHeapFreeRatio", MAX_HEAP_FREE_PERCENT, applied);
        set(hotspot, "G1PeriodicGCInterval", PERIODIC_GC_INTERVAL_MILLIS, applied);
        if (!applied.isEmpty()) {
            LOG.info("heap tuning for giving memory back when idle: {}", applied);
        }
        return applied;
    }

    private static String value(HotSpotDiagnosticMXBean hotspot, String name) {
        try {
            return hotspot.getVMOption(name).getValue();
        } catch (IllegalArgumentException unknown) {
            return null;
        }
    }

    private static void set(HotSpotDiagnosticMXBean hotspot, String name, String value, Map<String, String> applied) {
        try {
            VMOption option = hotspot.getVMOption(name);
            if (option.getOrigin() != VMOption.Origin.DEFAULT || !option.isWriteable()) {
                return;
            }
            hotspot.setVMOption(name, value);
            applied.put(name, value);
        } catch (IllegalArgumentException | SecurityException e) {
            LOG.debug("cannot set {}={}: {}", name, value, e.toString());
        }
    }
}
