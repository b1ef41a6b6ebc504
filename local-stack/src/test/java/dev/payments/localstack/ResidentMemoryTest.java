package dev.payments.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class ResidentMemoryTest {

    @Test
    void readsVmRssInBytes() {
        String status = "Name:\tjava\nVmPeak:\t 4000000 kB\nVmRSS:\t  123456 kB\nRssAnon:\t 100000 kB\n";

        assertThat(ResidentMemory.parseKilobytes(status, "VmRSS:")).hasValue(123456L * 1024);
        assertThat(ResidentMemory.parseKilobytes("Name:\tkthreadd\n", "VmRSS:")).isEmpty();
        assertThat(ResidentMemory.parseKilobytes("Rss:  2000 kB\nPss:  1500 kB\nPss_Anon:  1000 kB\n", "Pss:"))
                .hasValue(1500L * 1024);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void measuresThisJvmAndCountsEachProcessOnce() {
        long self = ProcessHandle.current().pid();

        ResidentMemory.Usage usage = ResidentMemory.ofProcess(self);

        assertThat(usage.resident()).isGreaterThan(10L << 20);
        assertThat(usage.proportional()).isPositive().isLessThanOrEqualTo(usage.resident());
        assertThat(ResidentMemory.ofProcessTrees(List.of(self, self)).resident())
                .isBetween(usage.resident() / 2, usage.resident() * 2);
        assertThat(ResidentMemory.ofProcess(Long.MAX_VALUE)).isEqualTo(ResidentMemory.Usage.NONE);
    }

    @Test
    void formatsForPeople() {
        assertThat(ResidentMemory.format(300L << 20)).isEqualTo("300 MB");
        assertThat(ResidentMemory.format(5L << 29)).isEqualTo("2.50 GB");
    }
}
