package dev.payments.pgsim.api;

import dev.payments.pgsim.callback.CallbackSender;
import dev.payments.pgsim.fault.ActiveFault.AsyncOutcome;
import dev.payments.pgsim.fault.LateBooking;
import dev.payments.pgsim.ledger.ConfirmStart;
import dev.payments.pgsim.http.Json;
import dev.payments.pgsim.ledger.Ledger;
import dev.payments.pgsim.ledger.Payment;
import dev.payments.pgsim.stats.Stats;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/** Finishes asynchronously accepted confirms after their delay and reports the outcome by callback. */
final class AsyncCompletions {

    private static final Logger log = LoggerFactory.getLogger(AsyncCompletions.class);

    private final Ledger ledger;
    private final Stats stats;
    private final CallbackSender callbacks;
    private final String defaultCallbackUrl;
    private final Delays delays;
    private final Mono<Void> closed;
    private final Clock clock;

    AsyncCompletions(Ledger ledger, Stats stats, CallbackSender callbacks, String defaultCallbackUrl, Delays delays,
            Mono<Void> closed, Clock clock) {
        this.ledger = ledger;
        this.stats = stats;
        this.callbacks = callbacks;
        this.defaultCallbackUrl = defaultCallbackUrl;
        this.delays = delays;
        this.closed = closed;
        this.clock = clock;
    }

    void schedule(Payment accepted, AsyncOutcome outcome) {
        delays.timer(outcome.delay())
                .takeUntilOther(closed)
                .subscribe(tick -> complete(accepted, outcome),
                        error -> log.error("async completion of {} failed", accepted.paymentKey(), error));
    }

    /**
     * Books a confirm nobody was answered for, after the lateBooking delay. The ledger's own rules still hold: an
     * order that got another payment meanwhile is never approved twice, the booking is refused and logged.
     */
    void bookLate(String paymentKey, String orderId, long amount, LateBooking booking) {
        delays.timer(booking.delay())
                .takeUntilOther(closed)
                .subscribe(tick -> book(paymentKey, orderId, amount, booking),
                        error -> log.error("late booking of {} failed", paymentKey, error));
    }

    private void book(String paymentKey, String orderId, long amount, LateBooking booking) {
        ConfirmStart start = ledger.beginConfirm(paymentKey, orderId, amount);
        if (start instanceof ConfirmStart.Refused refused) {
            log.info("late booking of {} refused by the books: {}", paymentKey, refused.message());
            return;
        }
        Optional<Payment> done = ledger.approve(paymentKey);
        if (done.isEmpty()) {
            return;
        }
        stats.approvals.increment();
        stats.lateBookings.increment();
        log.info("late booking: payment {} of order {} is DONE", paymentKey, orderId);
        String url = booking.callbackUrl() != null ? booking.callbackUrl() : defaultCallbackUrl;
        if (url != null) {
            callbacks.send(url, new String(Json.write(PaymentJson.callback(done.get(), clock.instant())),
                    StandardCharsets.UTF_8));
        }
    }

    private void complete(Payment accepted, AsyncOutcome outcome) {
        Optional<Payment> finished = outcome.decline().isPresent()
                ? ledger.abort(accepted.paymentKey(), outcome.decline().get())
                : ledger.approve(accepted.paymentKey());
        if (finished.isEmpty()) {
            log.info("async payment {} vanished before completion (ledger reset)", accepted.paymentKey());
            return;
        }
        (outcome.decline().isPresent() ? stats.declines : stats.approvals).increment();
        String url = outcome.callbackUrl() != null ? outcome.callbackUrl() : defaultCallbackUrl;
        if (url == null) {
            log.debug("no callback URL configured; payment {} is {} for pollers only", accepted.paymentKey(),
                    finished.get().status());
            return;
        }
        byte[] body = Json.write(PaymentJson.callback(finished.get(), clock.instant()));
        callbacks.send(url, new String(body, StandardCharsets.UTF_8));
    }
}
