package dev.payments.pgsim.fault;

import dev.payments.pgsim.ledger.DeclineReason;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import reactor.core.publisher.Mono;

/**
 * Every fault decision for one request, drawn together when it arrives (see {@link ActiveFault#plan()}).
 *
 * @param released completes when the fault that made this plan is replaced or cleared
 */
public record RequestPlan(
        boolean resetConnection,
        boolean hang,
        Duration latency,
        OptionalInt serverError,
        Optional<DeclineReason> decline,
        Optional<ActiveFault.AsyncOutcome> async,
        boolean dropAnswer,
        DropMode dropMode,
        Mono<Void> released) {
}
