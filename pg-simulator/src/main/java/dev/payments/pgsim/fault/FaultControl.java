package dev.payments.pgsim.fault;

import java.time.Duration;
import java.util.List;
import reactor.core.publisher.Mono;

/**
 * Sets and clears faults at runtime: the in-process twin of {@code /admin/faults}. The blocking
 * methods return once the API port matches the faults (closed while REFUSE is set).
 */
public final class FaultControl {

    private static final Duration SWITCH_TIMEOUT = Duration.ofSeconds(10);

    private final Faults faults;
    private final ListenerSwitch listener;

    public FaultControl(Faults faults, ListenerSwitch listener) {
        this.faults = faults;
        this.listener = listener;
    }

    public void set(FaultSpec... specs) {
        set(List.of(specs));
    }

    public void set(List<FaultSpec> specs) {
        apply(specs).block(SWITCH_TIMEOUT);
    }

    public void reset() {
        clear(null).block(SWITCH_TIMEOUT);
    }

    public void reset(Operation operation) {
        clear(operation).block(SWITCH_TIMEOUT);
    }

    public List<FaultSpec> current() {
        return faults.current();
    }

    public boolean refusingConnections() {
        return faults.refusingConnections();
    }

    /** Non-blocking variant for the admin API, which runs on an event loop. */
    public Mono<Void> apply(List<FaultSpec> specs) {
        return Mono.defer(() -> {
            faults.set(specs);
            return listener.sync();
        });
    }

    /** Clears one operation's slot, or everything when {@code operation} is null. */
    public Mono<Void> clear(Operation operation) {
        return Mono.defer(() -> {
            if (operation == null) {
                faults.reset();
            } else {
                faults.reset(operation);
            }
            return listener.sync();
        });
    }
}
