package io.logbloom.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class HeapTuningTest {
    @Test
    void apply_setsManageableG1FlagsOnce_andLeavesOperatorChoicesAlone() {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        boolean g1 = "true".equals(hotspot.getVMOption("UseG1GC").getValue());

        Map<String, String> applied = HeapTuning.apply();

        if (!g1) {
            assertThat(applied).isEmpty();
            return;
        }
        for (String name : new String[] {"MinHeapFreeRatio", "MaxHeapFreeRatio", "G1PeriodicGCInterval"}) {
            VMOption option = hotspot.getVMOption(name);
            if (applied.containsKey(name)) {
                assertThat(option.getValue()).isEqualTo(applied.get(name));
                assertThat(option.getOrigin()).isEqualTo(VMOption.Origin.MANAGEMENT);
            } else {
                assertThat(option.getOrigin()).isNotEqualTo(VMOption.Origin.DEFAULT);
            }
        }
        assertThat(Integer.parseInt(hotspot.getVMOption("MinHeapFreeRatio").getValue()))
                .isLessThanOrEqualTo(Integer.parseInt(hotspot.getVMOption("MaxHeapFreeRatio").getValue()));
        // a second call finds every flag already set and changes nothing
        assertThat(HeapTuning.apply()).isEmpty();
    }
}
