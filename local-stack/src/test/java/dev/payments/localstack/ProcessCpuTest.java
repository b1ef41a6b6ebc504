package dev.payments.localstack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessCpuTest {

    @Test
    void readsTheTimesAfterACommandNameWithSpacesAndParentheses() {
        String stat = "4242 (C2 Compiler) (x)) S 1 4242 4242 0 -1 4194560 100 0 0 0 1234 567 89 10 20 0 45 0 1 "
                + "123456 789 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";

        assertThat(ProcessCpu.parse(stat)).containsExactly(1234, 567, 89, 10);
        assertThat(ProcessCpu.parent(stat)).isEqualTo(1);
    }

    /** This JVM and a child it starts, from one reading of /proc. */
    @Test
    @EnabledOnOs(OS.LINUX)
    void aSnapshotFindsAChildAndCountsItInTheTree() throws Exception {
        Process child = new ProcessBuilder("sleep", "30").start();
        try {
            long self = ProcessHandle.current().pid();
            // Read alone first: this JVM keeps running, so a reading taken after the snapshot may be the larger.
            double alone = ProcessCpu.ofProcess(self).orElseThrow();
            ProcessCpu.Snapshot all = ProcessCpu.snapshot();

            assertThat(all.children(self)).containsKey(child.pid());
            assertThat(all.children(self).get(child.pid()).title()).isEqualTo("sleep 30");
            assertThat(all.ofTree(self).orElseThrow()).isGreaterThanOrEqualTo(alone);
            assertThat(all.ofTree(Long.MAX_VALUE)).isEmpty();
        } finally {
            child.destroy();
        }
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void thisProcessSpendsWhatItBurns() {
        long self = ProcessHandle.current().pid();
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        double before = ProcessCpu.ofProcess(self).orElseThrow();
        // Burn 200 ms of this thread's own CPU, however long a busy machine makes that take.
        long until = threads.getCurrentThreadCpuTime() + 200_000_000L;
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < until) {
            x += Long.numberOfTrailingZeros(x + System.nanoTime());
        }
        double after = ProcessCpu.ofProcess(self).orElseThrow();

        // Ticks are 10 ms; the kernel charges a tick to whichever thread runs at it, hence a margin.
        assertThat(after - before).as("200 ms of this thread's CPU (%d)", x).isGreaterThan(0.15);
        assertThat(ProcessCpu.ofTree(self).orElseThrow()).isGreaterThanOrEqualTo(after);
        assertThat(ProcessCpu.threads(self).values()).anySatisfy(t -> assertThat(t.name()).isNotBlank());
    }

    @Test
    void aProcessThatIsGoneHasNoReading() {
        assertThat(ProcessCpu.ofProcess(Long.MAX_VALUE)).isEmpty();
        assertThat(ProcessCpu.threads(Long.MAX_VALUE)).isEmpty();
    }
}
