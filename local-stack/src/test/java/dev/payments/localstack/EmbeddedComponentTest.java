package dev.payments.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.payments.localstack.infra.EmbeddedServer;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** What the status reports for PostgreSQL and Kafka: running if the server says so, else what was done to it. */
class EmbeddedComponentTest {

    @Test
    void reportsWhatTheLauncherLastDidUnlessTheServerRuns() {
        FakeServer server = new FakeServer();
        EmbeddedComponent postgres = new EmbeddedComponent(Component.POSTGRES, server);
        assertThat(postgres.state()).isEqualTo(ComponentState.NOT_STARTED);
        assertThat(postgres.lastStartup()).isEmpty();

        postgres.start();
        assertThat(postgres.state()).isEqualTo(ComponentState.RUNNING);
        assertThat(postgres.lastStartup()).isPresent();
        assertThat(postgres.pid()).hasValue(42);

        postgres.kill();
        assertThat(postgres.state()).isEqualTo(ComponentState.KILLED);
        postgres.start();
        postgres.stop();
        assertThat(postgres.state()).isEqualTo(ComponentState.STOPPED);
        assertThat(postgres.url()).isEqualTo("jdbc:fake");
        assertThat(postgres.name()).isEqualTo("postgres");
    }

    @Test
    void aServerInsideThisJvmCannotBeKilledAndKeepsRunning() {
        FakeServer inProcess = new FakeServer();
        inProcess.killable = false;
        EmbeddedComponent kafka = new EmbeddedComponent(Component.KAFKA, inProcess);
        kafka.start();

        assertThatThrownBy(kafka::kill).isInstanceOf(UnsupportedOperationException.class)
                .hasMessage("kafka runs inside the launcher's JVM and cannot be killed on its own; stop it instead");
        assertThat(kafka.state()).isEqualTo(ComponentState.RUNNING);
    }

    @Test
    void closedCountsAsStoppedEvenIfTheShutdownFailed() {
        FakeServer server = new FakeServer();
        server.failOnClose = true;
        EmbeddedComponent kafka = new EmbeddedComponent(Component.KAFKA, server);
        kafka.start();
        server.running = false;

        assertThatThrownBy(kafka::close).hasMessage("close failed");
        assertThat(kafka.state()).isEqualTo(ComponentState.STOPPED);
    }

    private static final class FakeServer implements EmbeddedServer {
        boolean running;
        boolean killable = true;
        boolean failOnClose;

        @Override
        public void start() {
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public void kill() {
            if (!killable) {
                EmbeddedServer.super.kill();
            }
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public OptionalLong pid() {
            return running ? OptionalLong.of(42) : OptionalLong.empty();
        }

        @Override
        public String url() {
            return "jdbc:fake";
        }

        @Override
        public void close() {
            if (failOnClose) {
                throw new IllegalStateException("close failed");
            }
            running = false;
        }
    }
}
