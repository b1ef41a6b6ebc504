package dev.payments.localstack;

import java.util.Locale;
import java.util.Optional;

/** What a drill, a test or an operator (the control endpoint) can do to one component or replica of a running stack. */
public enum StackAction {
    /** SIGTERM for a child (SIGKILL after the stop timeout), a clean shutdown for PostgreSQL and Kafka. */
    STOP,
    /** Starts it again (a no-op if it runs) and returns once it reports healthy. */
    START,
    RESTART,
    /**
     * SIGKILL, like a crashed pod or host; for PostgreSQL the postmaster and every backend. Kafka runs inside the
     * launcher and cannot be killed apart from it.
     */
    KILL,
    /**
     * SIGSTOP: frozen, not dead - every socket stays open, nothing is answered - like a paused VM or a host behind a
     * silent network cut.
     */
    FREEZE,
    /** SIGCONT: a frozen child runs on. */
    THAW;

    /** By its lower-case name, as the control endpoint and the drills' {@code control(component, action)} spell it. */
    public static Optional<StackAction> parse(String name) {
        for (StackAction action : values()) {
            if (action.name().toLowerCase(Locale.ROOT).equals(name)) {
                return Optional.of(action);
            }
        }
        return Optional.empty();
    }

    void on(ManagedComponent instance) {
        switch (this) {
            case STOP -> instance.stop();
            case START -> instance.start();
            case RESTART -> {
                instance.stop();
                instance.start();
            }
            case KILL -> instance.kill();
            case FREEZE -> Signals.send("STOP", instance.pid());
            case THAW -> Signals.send("CONT", instance.pid());
        }
    }
}
