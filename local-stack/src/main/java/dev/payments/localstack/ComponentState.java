package dev.payments.localstack;

/** Where a component stands, as the control endpoint reports it. */
public enum ComponentState {
    /** Not spawned yet. */
    NOT_STARTED,
    /** Its runnable jar is not built; it cannot be started. */
    MISSING,
    /** Spawned, not yet healthy. */
    STARTING,
    /** Reported healthy and still alive. */
    RUNNING,
    /** Stopped by the launcher or an operator (SIGTERM for a child). */
    STOPPED,
    /** Killed by an operator (SIGKILL; for PostgreSQL the postmaster and every backend). */
    KILLED,
    /** Exited by itself: a crash the launcher reports and does not repair. */
    EXITED
}
