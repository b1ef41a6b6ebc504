package dev.payments.pgsim.fault;

import dev.payments.pgsim.ledger.DeclineReason;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import reactor.core.publisher.Mono;

/**
 * Every fault decision for one request, drawn together when it arrives (see {@link ActiveFault#plan()}).
 *
 * @param lateBooking present when this confirm is to be held unanswered and booked later
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
        Optional<LateBooking> lateBooking,
        long amountDelta,
        Mono<Void> released) {
}
