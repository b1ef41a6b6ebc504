package dev.payments.localstack;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One part of a running stack that the launcher starts, stops and kills on its own and reports on: the embedded
 * PostgreSQL and Kafka ({@link EmbeddedComponent}) and each child JVM ({@link ChildProcess}). A new kind of part (a
 * token issuer) is another implementation; several replicas of a service are several instances of one
 * {@link Component} with names of their own.
 */
interface ManagedComponent {

    /** What it is. */
    Component component();

    /** How operators address it (the control endpoint, the status): unique in the stack. */
    default String name() {
        return component().id();
    }

    /** Where clients reach it: an HTTP base URL, a JDBC URL, bootstrap servers. */
    String url();

    /** Starts it and returns once it is ready; a no-op if it is running. */
    void start();

    /** Stops it cleanly (a child: SIGTERM, then SIGKILL after the stop timeout). */
    void stop();

    /** SIGKILL, like a crashed pod or host. */
    void kill();

    /** Stops it for good: the stack is closing, and nothing may start it again. */
    void close();

    ComponentState state();

    /** The process to measure (its tree), if it runs as one of its own. */
    OptionalLong pid();

    /** From start to ready, of the latest start. */
    Optional<Duration> lastStartup();

    /** Of the latest exit of a process of its own. */
    default Optional<Integer> lastExitCode() {
        return Optional.empty();
    }
}
