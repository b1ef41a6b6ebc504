package dev.payments.payment.application;

import dev.payments.contracts.PaymentPurpose;
import dev.payments.payment.application.ConfirmResult.Refusal;
import dev.payments.payment.application.ConfirmResult.Refused;
import dev.payments.payment.application.IdempotencyKeys.IdempotencyRecord;
import dev.payments.payment.application.PaymentAttempts.Attempt;
import dev.payments.payment.application.PaymentAttempts.Start;
import dev.payments.payment.application.PaymentGateway.ApprovalRequest;
import dev.payments.payment.application.PaymentGateway.Lane;
import dev.payments.payment.domain.CustomerNotice;
import dev.payments.payment.domain.PayableOrder;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.Verdict;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.TransactionStatus;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * A checkout's confirm (docs/architecture.md, "Request path"): one {@link PaymentAttempts payment attempt} whose TX-1
 * claims the idempotency key, takes the member's token and checks the order, and whose TX-2 stores the answer under
 * the key.
 */
public class ConfirmPayment {

    private static final Logger log = LoggerFactory.getLogger(ConfirmPayment.class);

    private final PaymentAttempts attempts;
    private final MemberRateLimit rateLimit;
    private final IdempotencyKeys idempotency;
    private final PayableOrders orders;
    private final Payments payments;
    private final ApprovalMetrics metrics;
    private final Clock clock;
    private final Duration deadline;

    public ConfirmPayment(PaymentAttempts attempts, MemberRateLimit rateLimit, IdempotencyKeys idempotency,
                          PayableOrders orders, Payments payments, ApprovalMetrics metrics, Clock clock,
                          Duration deadline) {
        this.attempts = attempts;
        this.rateLimit = rateLimit;
        this.idempotency = idempotency;
        this.orders = orders;
        this.payments = payments;
        this.metrics = metrics;
        this.clock = clock;
        this.deadline = deadline;
    }

    public ConfirmResult confirm(ConfirmCommand command) {
        ConfirmResult result = answer(command, attempts.run(Lane.APPROVAL, deadline, tx1 -> start(command, tx1),
                (Void none, PaymentUnitOfWork.Locked payment, Optional<Verdict> verdict) ->
                        recorded(command, payment, verdict)));
        metrics.record(result);
        return result;
    }

    // Admission comes before the database, even before the idempotency claim and the member's rate bucket (both in
    // TX-1): with the breaker open a refused request must cost no connection and write nothing (000 saw the pool's
    // pending queue jump to 29 when 50 rejections wrote their states at once). The price: a repeat of an answered
    // request is refused too while the breaker is open, and gets its stored answer once it closes.
    private ConfirmResult answer(ConfirmCommand command, Attempt<ConfirmResult> attempt) {
        if (attempt instanceof Attempt.Refused<ConfirmResult> refused) {
            return new Refused(Refusal.PG_UNAVAILABLE, "The PG is not taking approvals (" + refused.rejection() + ")",
                    refused.retryAfter());
        }
        if (attempt instanceof Attempt.Stopped<ConfirmResult> stopped) {
            return stopped.result();
        }
        if (attempt instanceof Attempt.StartFailed<ConfirmResult> failed) {
            if (failed.cause() instanceof DuplicateKeyException) {
                // Another key started a payment for this order at the same moment; the partial unique index kept it
                // to one. TX-1 rolled back whole: the key is free and the member's token given back.
                return new Refused(Refusal.PAYMENT_IN_PROGRESS,
                        "Order " + command.orderId() + " already has a payment that is approved or being confirmed");
            }
            // Nothing was written and the PG was not called: safe to try again.
            log.warn("Database failed before the PG call; nothing happened", failed.cause());
            return new Refused(Refusal.DB_UNAVAILABLE, "The payment database is not available; nothing was charged",
                    Duration.ofSeconds(1));
        }
        if (attempt instanceof Attempt.Unrecorded<ConfirmResult> unrecorded) {
            return new ConfirmResult.Unrecorded(PaymentReceipt.of(unrecorded.payment(), CustomerNotice.PENDING,
                    "PENDING", "We are confirming the payment with the PG"));
        }
        return ((Attempt.Recorded<ConfirmResult>) attempt).result();
    }

    /**
     * TX-1: claim the key, take the member's token, check the order. One transaction, one commit: the key is kept
     * with the payment or not at all, and the token is spent by every confirm that gets as far as its order.
     */
    private Start<Void, ConfirmResult> start(ConfirmCommand command, TransactionStatus tx1) {
        // The key first: a concurrent duplicate waits on this row and then finds it taken (-> its stored answer),
        // instead of finding the first request's live payment (-> a misleading conflict). Before the member's token:
        // a client asking again for the answer to a request it already made is not another approval, so it takes
        // nothing from the member's allowance.
        PaymentId paymentId = PaymentId.newId();
        if (!idempotency.claim(command.memberId(), command.idempotencyKey(), command.requestHash(), paymentId)) {
            tx1.setRollbackOnly();
            return new Start.Stop<>(replay(command, idempotency.find(command.memberId(), command.idempotencyKey())
                    .orElseThrow(() -> new IllegalStateException(
                            "Idempotency key " + command.idempotencyKey() + " was taken and is gone"))));
        }
        Optional<Duration> limited = rateLimit.tryAcquire(command.memberId());
        if (limited.isPresent()) {
            // Nothing taken, and the key goes with the rollback: the member may send the same request once allowed.
            tx1.setRollbackOnly();
            return new Start.Stop<>(new Refused(Refusal.RATE_LIMITED,
                    "At most the configured approvals per member per minute", limited.get()));
        }
        Optional<PayableOrder> order = orders.lock(command.orderId());
        if (order.isEmpty() || !order.get().memberId().equals(command.memberId())) {
            return refuse(command, Refusal.ORDER_NOT_FOUND, "No order " + command.orderId() + " for this member");
        }
        PayableOrder payable = order.get();
        if (payable.status() == PayableOrder.Status.PAID) {
            return refuse(command, Refusal.ORDER_ALREADY_PAID, "Order " + command.orderId() + " is already paid");
        }
        if (!payable.isPayable()) {
            return refuse(command, Refusal.ORDER_NOT_PAYABLE, "Order " + command.orderId() + " is " + payable.status());
        }
        if (payable.money().amount() != command.amount()) {
            return refuse(command, Refusal.AMOUNT_MISMATCH, "The order's amount is " + payable.money().amount()
                    + ", the request says " + command.amount());
        }
        if (payments.hasLivePayment(command.orderId())) {
            return refuse(command, Refusal.PAYMENT_IN_PROGRESS,
                    "Order " + command.orderId() + " already has a payment that is approved or being confirmed");
        }
        if (payments.paymentKeyInUse(command.paymentKey())) {
            return refuse(command, Refusal.PAYMENT_KEY_USED, "Payment key " + command.paymentKey()
                    + " already belongs to a payment the PG may have seen; a new attempt needs a new checkout");
        }
        Payment payment = Payment.request(paymentId, command.orderId(), command.memberId(), payable.money(),
                command.paymentKey(), PaymentPurpose.ORDER, clock.instant());
        return new Start.Charge<>(null, payment, new ApprovalRequest(payment.paymentKey(), payment.orderId(),
                payment.money().amount(), payment.id().toString(), null));
    }

    /**
     * A confirm refused on its order: the key is given back, so a refused request does not burn it, and TX-1 commits
     * the member's token, so a refused confirm counts against the allowance like any other
     * (docs/decisions/rate-limit.md).
     */
    private Start<Void, ConfirmResult> refuse(ConfirmCommand command, Refusal refusal, String detail) {
        idempotency.release(command.memberId(), command.idempotencyKey());
        return new Start.Stop<>(new Refused(refusal, detail));
    }

    /** TX-2's own writes: what the customer is told, stored under the key. */
    private ConfirmResult recorded(ConfirmCommand command, PaymentUnitOfWork.Locked locked,
                                   Optional<Verdict> verdict) {
        Payment payment = locked.payment();
        PaymentReceipt receipt = receiptFor(payment);
        if (verdict.isEmpty() && payment.customerNotice() == CustomerNotice.NONE) {
            // A callback or a sync settled the payment first; the customer hears the state that is now recorded.
            payment.told(receipt.result());
            locked.changed();
        }
        idempotency.complete(command.memberId(), command.idempotencyKey(), receipt);
        return new ConfirmResult.Answered(receipt, verdict.orElseGet(() -> switch (receipt.result()) {
            case APPROVED -> Verdict.APPROVED;
            case DECLINED -> Verdict.DECLINED;
            case FAILED -> Verdict.NOTHING_CHARGED;
            case PENDING, NONE -> Verdict.UNDECIDED;
        }));
    }

    /**
     * TX-1 found the key taken: the request that holds it decides the answer. Without a final answer stored (still in
     * flight, answered PENDING, or the first request's final write failed), the payment's state once settled
     * (reconciliation, a callback).
     */
    private ConfirmResult replay(ConfirmCommand command, IdempotencyRecord record) {
        if (!record.requestHash().equals(command.requestHash())) {
            return new Refused(Refusal.IDEMPOTENCY_KEY_REUSED,
                    "Idempotency key " + command.idempotencyKey() + " was used with a different request");
        }
        Optional<PaymentReceipt> stored = record.receipt();
        if (stored.isPresent() && stored.get().result() != CustomerNotice.PENDING
                && stored.get().result() != CustomerNotice.NONE) {
            return new ConfirmResult.Replayed(stored.get());
        }
        return new ConfirmResult.Replayed(payments.findById(record.paymentId())
                .filter(payment -> !payment.status().isUnsettled())
                .map(ConfirmPayment::receiptFor)
                .or(() -> stored)
                .orElseGet(() -> PaymentReceipt.inFlight(record.paymentId().value(), command.orderId().value())));
    }

    static PaymentReceipt receiptFor(Payment payment) {
        return switch (payment.status()) {
            case APPROVED -> PaymentReceipt.of(payment, CustomerNotice.APPROVED, "APPROVED", "Payment approved");
            case DECLINED -> PaymentReceipt.of(payment, CustomerNotice.DECLINED, payment.failureCode(),
                    payment.failureMessage());
            case FAILED, CANCEL_OWED, CANCELED -> PaymentReceipt.of(payment, CustomerNotice.FAILED, payment.failureCode(),
                    "The payment did not go through; nothing was charged");
            case REQUESTED, UNKNOWN -> PaymentReceipt.of(payment, CustomerNotice.PENDING, "PENDING",
                    "We are confirming the payment with the PG");
        };
    }
}
