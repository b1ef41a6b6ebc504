package dev.payments.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeftoversIntegrationTest {

    @TempDir
    Path root;

    @Test
    void stopsChildrenOfALauncherThatDiedButNeverAStrangerThatReusedThePid() throws Exception {
        Path runDirectory = Files.createDirectories(root.resolve("run"));
        Process orphan = orphanOrderService(runDirectory);
        // A pid file whose pid now belongs to someone else: this test's JVM.
        Files.writeString(runDirectory.resolve("payment-service.pid"), Long.toString(ProcessHandle.current().pid()));

        Leftovers.stop(runDirectory, root.resolve("postgres"));

        assertThat(orphan.waitFor(Duration.ofSeconds(5).toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(ProcessHandle.current().isAlive()).isTrue();
        assertThat(runDirectory).isEmptyDirectory();
    }

    /** {@code --clean} wipes the data directory, pid files included: the leftovers must be found before that. */
    @Test
    void aCleanStartStillStopsWhatThePreviousLauncherLeftBehind() throws Exception {
        Path dataDir = root.resolve("data");
        Process orphan = orphanOrderService(Files.createDirectories(dataDir.resolve("run")));
        Path repo = FakeRepository.create(Files.createDirectories(root.resolve("repo")), Component.ORDER_SERVICE);

        try {
            RunningStack.prepare(LocalStackOptions.builder().repoDir(repo).dataDir(dataDir).clean(true).randomPorts()
                    .children(Set.of(Component.ORDER_SERVICE)).build());

            assertThat(orphan.waitFor(Duration.ofSeconds(15).toMillis(), TimeUnit.MILLISECONDS))
                    .as("the previous run's order-service was stopped").isTrue();
        } finally {
            orphan.destroyForcibly();
        }
    }

    /** A child of a launcher that died without its shutdown hook: running, marked, named in a pid file. */
    private Process orphanOrderService(Path runDirectory) throws Exception {
        String classpath = Path.of(FakeService.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        Process orphan = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx32m", "-D" + ChildSpec.COMPONENT_PROPERTY + "=order-service", "-cp", classpath,
                FakeService.class.getName(), "--server.port=0")).redirectErrorStream(true)
                .redirectOutput(root.resolve("orphan.log").toFile()).start();
        Files.writeString(runDirectory.resolve("order-service.pid"), Long.toString(orphan.pid()));
        return orphan;
    }
}
