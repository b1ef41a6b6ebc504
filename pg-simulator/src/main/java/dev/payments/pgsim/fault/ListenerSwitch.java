package dev.payments.pgsim.fault;

import reactor.core.publisher.Mono;

/** Opens or closes the API port so that "connection refused" is real (implemented by the API server). */
public interface ListenerSwitch {

    /** Makes the listener match the current faults; completes when it does. */
    Mono<Void> sync();
}
