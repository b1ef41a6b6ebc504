package dev.payments.localstack.infra;

import java.util.OptionalLong;

/** PostgreSQL or Kafka as the launcher runs them: started, stopped and closed from this JVM. */
public interface EmbeddedServer extends AutoCloseable {

    /** Starts it (again) and returns once it accepts connections; a no-op if it is running. */
    void start();

    /** A clean shutdown; {@link #start()} brings it back with its data. */
    void stop();

    boolean isRunning();

    /** SIGKILL, if it runs as processes of its own. */
    default void kill() {
        throw new UnsupportedOperationException(
                "it runs inside this JVM and cannot be killed on its own; stop it instead");
    }

    /** The process that stands for it, if it has processes of its own. */
    default OptionalLong pid() {
        return OptionalLong.empty();
    }

    /** Where clients connect. */
    String url();

    @Override
    void close();
}
