package dev.payments.payment.application;

import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Publishes a settled payment's events again, with their own ids, so a consumer that lost its outcome (an order left
 * PAYMENT_PENDING after its payment was approved or failed) applies it through its normal path; consumers that had
 * it change nothing. Reconciliation asks for it when an order lags its payment's outcome (docs/reconciliation.md). Moves no money and changes no state here; repeating it is harmless.
 */
public class RepublishPaymentEvents {

    /**
     * How far before the payment's request its events are looked for: its events carry the clock of whichever
     * replica wrote them, this one's request time another's.
     */
    static final Duration CLOCK_MARGIN = Duration.ofMinutes(5);

    private static final Logger log = LoggerFactory.getLogger(RepublishPaymentEvents.class);

    private final PaymentUnitOfWork unitOfWork;
    private final PaymentEventHistory events;

    public RepublishPaymentEvents(PaymentUnitOfWork unitOfWork, PaymentEventHistory events) {
        this.unitOfWork = unitOfWork;
        this.events = events;
    }

    /** What a republish did. */
    public sealed interface Result {

        Payment payment();

        /** The payment's events, oldest first, are on their way again. */
        record Republished(Payment payment, List<PaymentEventHistory.Resent> events) implements Result {
        }

        /** The payment has no final outcome yet: there is nothing to repair, the sync settles it. */
        record NotFinal(Payment payment) implements Result {
        }

        /** Its events are no longer kept (the outbox cleanup's retention): only an operator can repair it. */
        record NotRetained(Payment payment) implements Result {
        }
    }

    /** @return empty if there is no such payment */
    public Optional<Result> republish(PaymentId id) {
        return unitOfWork.lockedIfPresent(id, locked -> {
            Payment payment = locked.payment();
            if (payment.status().isUnsettled()) {
                return (Result) new Result.NotFinal(payment);
            }
            List<PaymentEventHistory.Resent> resent = events.resend(id, payment.requestedAt().minus(CLOCK_MARGIN));
            if (resent.isEmpty()) {
                return new Result.NotRetained(payment);
            }
            log.warn("Payment {} ({}, order {}): its {} events published again on request: {}", id, payment.status(),
                    payment.orderId(), resent.size(), resent.stream().map(PaymentEventHistory.Resent::type).toList());
            return new Result.Republished(payment, resent);
        });
    }
}
