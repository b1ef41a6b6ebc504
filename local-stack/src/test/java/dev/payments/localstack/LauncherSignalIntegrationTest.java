package dev.payments.localstack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A launcher stopped by a signal (Ctrl-C, SIGTERM, a drill interrupted by its operator) takes its PostgreSQL and its
 * service JVMs with it: nothing is left running with no parent.
 */
class LauncherSignalIntegrationTest {

    @TempDir
    Path root;

    @Test
    void aSignalledLauncherLeavesNoServiceOrDatabaseBehind() throws Exception {
        Path repo = FakeRepository.create(Files.createDirectories(root.resolve("repo")), Component.ORDER_SERVICE);
        Path data = root.resolve("data");
        Process launcher = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), StackUntilSignalled.class.getName(),
                repo.toString(), data.toString())).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(launcher.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            do {
                line = out.readLine();
            } while (line != null && !line.contains(StackUntilSignalled.READY));
            assertThat(line).as("the launcher's output ended before the stack started").isNotNull();
            long service = Long.parseLong(Files.readString(data.resolve("run").resolve("order-service.pid")).trim());
            long postmaster = Long.parseLong(Files.readAllLines(data.resolve("postgres").resolve("postmaster.pid"))
                    .get(0).trim());
            assertThat(ProcessHandle.of(service)).isPresent();

            launcher.destroy();   // SIGTERM

            assertThat(launcher.waitFor(60, TimeUnit.SECONDS)).as("the launcher exits").isTrue();
            await().atMost(java.time.Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(ProcessHandle.of(service).filter(ProcessHandle::isAlive)).as("order-service").isEmpty();
                assertThat(ProcessHandle.of(postmaster).filter(ProcessHandle::isAlive)).as("PostgreSQL").isEmpty();
            });
        } finally {
            launcher.destroyForcibly();
        }
    }
}
