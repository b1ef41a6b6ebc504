package dev.payments.payment.domain;

import dev.payments.contracts.Money;
import dev.payments.contracts.PaymentPurpose;
import dev.payments.contracts.RefundFailed;
import dev.payments.contracts.RefundRequested;
import dev.payments.contracts.RefundSucceeded;
import dev.payments.contracts.RefundUnknown;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import static dev.payments.payment.domain.RefundStatus.FAILED;
import static dev.payments.payment.domain.RefundStatus.REQUESTED;
import static dev.payments.payment.domain.RefundStatus.SUCCEEDED;
import static dev.payments.payment.domain.RefundStatus.UNKNOWN;

/**
 * Part (or all) of an approved payment given back: its own record, states and events. Its amount is reserved on the
 * payment before the PG is asked (the database refuses a reservation beyond what was approved), so refunds in flight
 * count against what is left. What a PG answer means for it is decided here, in {@link #record} (the answer to our
 * cancel) and {@link #settleWith} (the PG's cancels of the payment, asked later). The PG's cancel is recognised by its
 * reason, which names the refund: Toss's {@code cancels[]} carry the reason we sent, not our key.
 */
public final class Refund {

    /** The PG answered, but without a cancel that is ours. */
    public static final String PG_CANCEL_NOT_SHOWN = "PG_CANCEL_NOT_SHOWN";
    /** The PG's cancel for this refund is of another amount: a human looks. */
    public static final String PG_AMOUNT_MISMATCH = "PG_AMOUNT_MISMATCH";
    /** The PG has no cancel of ours long after the request: it never booked it. */
    public static final String PG_CANCEL_NOT_FOUND = "PG_CANCEL_NOT_FOUND";

    /** Who asked for a refund. */
    public enum Requester {
        MEMBER,
        OPERATOR
    }

    /** What settling with the PG's cancels did. */
    public enum Action {
        NONE,
        SUCCEEDED,
        FAILED,
        /** The answer was lost or unclear: the amount stays reserved until the PG's cancels settle it. */
        UNKNOWN,
        RETRY_LATER,
        /** The PG's cancel under our refund's name is of another amount: nothing changed. */
        MISMATCH
    }

    private static final Transitions<RefundStatus> TRANSITIONS = new Transitions<>("Refund", Map.of(
            REQUESTED, EnumSet.of(SUCCEEDED, FAILED, UNKNOWN),
            UNKNOWN, EnumSet.of(SUCCEEDED, FAILED),
            // A late booking: the PG gave the money back after we had found no cancel of ours.
            FAILED, EnumSet.of(SUCCEEDED),
            SUCCEEDED, EnumSet.noneOf(RefundStatus.class)));

    private final RefundId id;
    private final PaymentId paymentId;
    private final OrderId orderId;
    private final MemberId memberId;
    private final Money money;
    private final long paymentAmount;
    private final PaymentPurpose purpose;
    private final String reason;
    private final Requester requester;
    private final String requestedBy;
    private final Instant requestedAt;
    private RefundStatus status;
    private String pgTransactionKey;
    private String failureCode;
    private Instant updatedAt;

    private Refund(RefundId id, PaymentId paymentId, OrderId orderId, MemberId memberId, Money money,
                   long paymentAmount, PaymentPurpose purpose, String reason, Requester requester, String requestedBy,
                   Instant requestedAt, RefundStatus status, String pgTransactionKey, String failureCode,
                   Instant updatedAt) {
        this.id = Objects.requireNonNull(id);
        this.paymentId = Objects.requireNonNull(paymentId);
        this.orderId = Objects.requireNonNull(orderId);
        this.memberId = Objects.requireNonNull(memberId);
        this.money = Objects.requireNonNull(money);
        this.paymentAmount = paymentAmount;
        this.purpose = Objects.requireNonNull(purpose);
        this.reason = reason;
        this.requester = Objects.requireNonNull(requester);
        this.requestedBy = Objects.requireNonNull(requestedBy);
        this.requestedAt = Objects.requireNonNull(requestedAt);
        this.status = Objects.requireNonNull(status);
        this.pgTransactionKey = pgTransactionKey;
        this.failureCode = failureCode;
        this.updatedAt = updatedAt;
    }

    /**
     * Starts a refund of an approved payment; the caller has reserved its amount on the payment in the same
     * transaction.
     *
     * @throws IllegalArgumentException when the payment is not APPROVED or the amount is not positive or over what was
     *                                  approved (the reservation is the real guard: it counts refunds in flight)
     */
    public static Refund request(RefundId id, Payment payment, long amount, String reason, Requester requester,
                                 String requestedBy, Instant now) {
        if (payment.status() != PaymentStatus.APPROVED) {
            throw new IllegalArgumentException("Payment " + payment.id() + " is " + payment.status() + ", not APPROVED");
        }
        if (amount <= 0 || amount > payment.money().amount()) {
            throw new IllegalArgumentException("A refund of " + amount + " of a payment of " + payment.money().amount());
        }
        return new Refund(id, payment.id(), payment.orderId(), payment.memberId(),
                new Money(amount, payment.money().currency()), payment.money().amount(), payment.purpose(), reason,
                requester, requestedBy, now, REQUESTED, null, null, now);
    }

    /** Rebuilds a stored refund. */
    public static Refund restore(RefundId id, PaymentId paymentId, OrderId orderId, MemberId memberId, Money money,
                                 long paymentAmount, PaymentPurpose purpose, String reason, Requester requester,
                                 String requestedBy, Instant requestedAt, RefundStatus status, String pgTransactionKey,
                                 String failureCode, Instant updatedAt) {
        return new Refund(id, paymentId, orderId, memberId, money, paymentAmount, purpose, reason, requester,
                requestedBy, requestedAt, status, pgTransactionKey, failureCode, updatedAt);
    }

    public RefundRequested requested() {
        return new RefundRequested(id.value(), paymentId.value(), orderId.value(), memberId.value(), money.amount(),
                money.currency(), paymentAmount, requestedBy, purpose);
    }

    /** What the PG gets as {@code cancelReason}: names this refund, so its cancel is found in the PG's books. */
    public String pgCancelReason() {
        String words = reason == null || reason.isBlank() ? "refund" : reason;
        return pgReasonMark(id) + " " + words;
    }

    static String pgReasonMark(RefundId id) {
        return "refund " + id + ":";
    }

    /**
     * The answer to our cancel, in TX-2 (refund REQUESTED).
     *
     * <table>
     *   <tr><th>outcome</th><th>refund</th></tr>
     *   <tr><td>answered, our cancel with our amount in cancels[]</td><td>SUCCEEDED</td></tr>
     *   <tr><td>answered, our cancel of another amount, or none of ours</td><td>UNKNOWN (a human or the settle looks)</td></tr>
     *   <tr><td>refused (4xx), never sent</td><td>FAILED: nothing booked</td></tr>
     *   <tr><td>lost; the status asked after it shows our cancel</td><td>SUCCEEDED</td></tr>
     *   <tr><td>lost; the status does not show it, or could not be asked</td><td>UNKNOWN</td></tr>
     * </table>
     *
     * @param refundedSoFar what the payment's succeeded refunds add up to before this one
     */
    public Decision<Action> record(RefundOutcome outcome, long refundedSoFar, Instant now) {
        if (status != REQUESTED) {
            throw TRANSITIONS.refused(id, status, status);
        }
        if (outcome instanceof RefundOutcome.Answered answered) {
            return matched(answered.status(), refundedSoFar, now)
                    .orElseGet(() -> Decision.wrote(Action.UNKNOWN, markUnknown(answered.status().cancelOf(id).isPresent()
                            ? PG_AMOUNT_MISMATCH : PG_CANCEL_NOT_SHOWN, now)));
        }
        if (outcome instanceof RefundOutcome.Refused refused) {
            return Decision.wrote(Action.FAILED, fail("PG_" + refused.code(), now));
        }
        if (outcome instanceof RefundOutcome.NotSent notSent) {
            return Decision.wrote(Action.FAILED, fail(notSent.reason(), now));
        }
        RefundOutcome.Lost lost = (RefundOutcome.Lost) outcome;
        Optional<Decision<Action>> found = lost.asked() == null ? Optional.empty() : matched(lost.asked(), refundedSoFar, now);
        return found.orElseGet(() -> Decision.wrote(Action.UNKNOWN, markUnknown(lost.reason(), now)));
    }

    /**
     * The PG's cancels of the payment, asked later (sync, reconciliation), under the payment's row lock. Never sends
     * anything: a lost refund is found in the PG's books or, once the PG has long had time to book it, known never
     * booked.
     *
     * <table>
     *   <tr><th>refund</th><th>PG's cancels</th><th>action</th></tr>
     *   <tr><td>REQUESTED / UNKNOWN / FAILED</td><td>ours, our amount</td><td>SUCCEEDED (from FAILED: a late booking)</td></tr>
     *   <tr><td>any</td><td>ours, another amount</td><td>MISMATCH</td></tr>
     *   <tr><td>REQUESTED / UNKNOWN</td><td>none of ours, older than notFoundIsFinalAfter</td><td>FAILED</td></tr>
     *   <tr><td>REQUESTED / UNKNOWN</td><td>none of ours, younger</td><td>RETRY_LATER</td></tr>
     *   <tr><td>SUCCEEDED / FAILED</td><td>none of ours</td><td>NONE</td></tr>
     * </table>
     */
    public Decision<Action> settleWith(PgStatus pg, long refundedSoFar, Instant now, Duration notFoundIsFinalAfter) {
        if (status == SUCCEEDED) {
            return pg.cancelOf(id).filter(c -> c.amount() != money.amount()).isPresent()
                    ? Decision.of(Action.MISMATCH) : Decision.of(Action.NONE);
        }
        Optional<PgCancel> ours = pg.cancelOf(id);
        if (ours.isPresent()) {
            return matched(pg, refundedSoFar, now).orElseGet(() -> Decision.of(Action.MISMATCH));
        }
        if (status == FAILED) {
            return Decision.of(Action.NONE);
        }
        return requestedAt.plus(notFoundIsFinalAfter).isBefore(now)
                ? Decision.wrote(Action.FAILED, fail(PG_CANCEL_NOT_FOUND, now))
                : Decision.of(Action.RETRY_LATER);
    }

    private Optional<Decision<Action>> matched(PgStatus pg, long refundedSoFar, Instant now) {
        return pg.cancelOf(id).filter(c -> c.amount() == money.amount())
                .map(c -> Decision.wrote(Action.SUCCEEDED, succeed(c, refundedSoFar, now)));
    }

    private RefundSucceeded succeed(PgCancel cancel, long refundedSoFar, Instant now) {
        moveTo(SUCCEEDED, now);
        this.pgTransactionKey = cancel.transactionKey();
        Instant at = cancel.canceledAt() != null ? cancel.canceledAt() : now;
        return new RefundSucceeded(id.value(), paymentId.value(), orderId.value(), memberId.value(), money.amount(),
                money.currency(), refundedSoFar + money.amount(), paymentAmount, pgTransactionKey, at, purpose);
    }

    private RefundFailed fail(String code, Instant now) {
        moveTo(FAILED, now);
        this.failureCode = code;
        return new RefundFailed(id.value(), paymentId.value(), orderId.value(), memberId.value(), money.amount(),
                money.currency(), code, purpose);
    }

    private RefundUnknown markUnknown(String code, Instant now) {
        moveTo(UNKNOWN, now);
        this.failureCode = code;
        return new RefundUnknown(id.value(), paymentId.value(), orderId.value(), memberId.value(), money.amount(),
                money.currency(), code, purpose);
    }

    private void moveTo(RefundStatus target, Instant at) {
        this.status = TRANSITIONS.check(id, status, target);
        this.updatedAt = at;
    }

    public RefundId id() {
        return id;
    }

    public PaymentId paymentId() {
        return paymentId;
    }

    public OrderId orderId() {
        return orderId;
    }

    public MemberId memberId() {
        return memberId;
    }

    public Money money() {
        return money;
    }

    public long paymentAmount() {
        return paymentAmount;
    }

    public PaymentPurpose purpose() {
        return purpose;
    }

    public String reason() {
        return reason;
    }

    public Requester requester() {
        return requester;
    }

    public String requestedBy() {
        return requestedBy;
    }

    public Instant requestedAt() {
        return requestedAt;
    }

    public RefundStatus status() {
        return status;
    }

    public String pgTransactionKey() {
        return pgTransactionKey;
    }

    public String failureCode() {
        return failureCode;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
