package dev.payments.localstack;

import dev.payments.localstack.infra.EmbeddedServer;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * PostgreSQL or Kafka, run by the launcher itself: its state is what the launcher last did to it, unless it is
 * running. PostgreSQL's processes are the launcher's children; Kafka lives inside the launcher's JVM.
 */
final class EmbeddedComponent implements ManagedComponent {

    private final Component component;
    private final EmbeddedServer server;
    private volatile ComponentState state = ComponentState.NOT_STARTED;
    private volatile Duration lastStartup;

    EmbeddedComponent(Component component, EmbeddedServer server) {
        this.component = component;
        this.server = server;
    }

    @Override
    public Component component() {
        return component;
    }

    @Override
    public String url() {
        return server.url();
    }

    @Override
    public void start() {
        long began = System.nanoTime();
        server.start();
        lastStartup = Duration.ofNanos(System.nanoTime() - began);
        state = ComponentState.RUNNING;
    }

    @Override
    public void stop() {
        server.stop();
        state = ComponentState.STOPPED;
    }

    @Override
    public void kill() {
        try {
            server.kill();
        } catch (UnsupportedOperationException e) {
            throw new UnsupportedOperationException(
                    name() + " runs inside the launcher's JVM and cannot be killed on its own; stop it instead", e);
        }
        state = ComponentState.KILLED;
    }

    @Override
    public void close() {
        try {
            server.close();
        } finally {
            state = ComponentState.STOPPED;
        }
    }

    @Override
    public ComponentState state() {
        return server.isRunning() ? ComponentState.RUNNING : state;
    }

    @Override
    public OptionalLong pid() {
        return server.pid();
    }

    @Override
    public Optional<Duration> lastStartup() {
        return Optional.ofNullable(lastStartup);
    }
}
