package dev.payments.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeftoversIntegrationTest {

    @TempDir
    Path root;

    @Test
    void stopsChildrenOfALauncherThatDiedButNeverAStrangerThatReusedThePid() throws Exception {
        Path runDirectory = Files.createDirectories(root.resolve("run"));
        String classpath = Path.of(FakeService.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        Process orphan = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx32m", "-D" + ChildSpec.COMPONENT_PROPERTY + "=order-service", "-cp", classpath,
                FakeService.class.getName(), "--server.port=0")).redirectErrorStream(true)
                .redirectOutput(root.resolve("orphan.log").toFile()).start();
        Files.writeString(runDirectory.resolve("order-service.pid"), Long.toString(orphan.pid()));
        // A pid file whose pid now belongs to someone else: this test's JVM.
        Files.writeString(runDirectory.resolve("payment-service.pid"), Long.toString(ProcessHandle.current().pid()));

        Leftovers.stop(runDirectory, root.resolve("postgres"));

        assertThat(orphan.waitFor(Duration.ofSeconds(5).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(ProcessHandle.current().isAlive()).isTrue();
        assertThat(runDirectory).isEmptyDirectory();
    }
}
