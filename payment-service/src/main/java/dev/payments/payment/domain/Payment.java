package dev.payments.payment.domain;

import dev.payments.contracts.Money;
import dev.payments.contracts.PaymentApproved;
import dev.payments.contracts.PaymentCancelOwed;
import dev.payments.contracts.PaymentCanceled;
import dev.payments.contracts.PaymentDeclined;
import dev.payments.contracts.PaymentEvent;
import dev.payments.contracts.PaymentFailed;
import dev.payments.contracts.PaymentPurpose;
import dev.payments.contracts.PaymentRequested;
import dev.payments.contracts.PaymentUnknown;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import static dev.payments.payment.domain.PaymentStatus.APPROVED;
import static dev.payments.payment.domain.PaymentStatus.CANCEL_OWED;
import static dev.payments.payment.domain.PaymentStatus.CANCELED;
import static dev.payments.payment.domain.PaymentStatus.DECLINED;
import static dev.payments.payment.domain.PaymentStatus.FAILED;
import static dev.payments.payment.domain.PaymentStatus.REQUESTED;
import static dev.payments.payment.domain.PaymentStatus.UNKNOWN;

/**
 * One attempt to charge a member for an order. Changes state only through its verbs; each returns the one event that
 * must be written to the outbox in the same transaction. What a PG answer means for the payment is decided here, in
 * two tables: {@link #record} for the answer to our confirm, {@link #settleWith} for the PG's status later (the
 * operator sync, reconciliation, the PG's callback). docs/resilience.md, "What a PG answer means".
 */
public final class Payment {

    /** The PG answered about another payment key than ours. */
    public static final String PG_KEY_MISMATCH = "PG_KEY_MISMATCH";
    /** The PG answered about another order than ours. */
    public static final String PG_ORDER_MISMATCH = "PG_ORDER_MISMATCH";
    /** The PG approved another amount than ours. */
    public static final String PG_AMOUNT_MISMATCH = "PG_AMOUNT_MISMATCH";
    /** Our cancel of a charge the customer must not keep (told "not charged", or the order cannot be paid). */
    public static final String COMPENSATION = "COMPENSATION";
    /** The PG cancelled a charge itself (its console, a refund whose answer we lost). */
    public static final String PG_CANCELED = "PG_CANCELED";
    /** The PG approved after we had recorded FAILED or DECLINED (told the customer "not charged"). */
    public static final String LATE_APPROVAL = "LATE_APPROVAL";
    /** A member's refund of an approved payment. */
    public static final String REFUNDED = "REFUNDED";
    /** The PG has never seen the payment long after it was requested: the confirm never arrived. */
    public static final String PG_NOT_FOUND = "PG_NOT_FOUND";

    /** A confirm's outcome as recorded: what it meant and the one event it wrote. */
    public record Recorded(Verdict verdict, PaymentEvent event) {
    }

    private static final Transitions<PaymentStatus> TRANSITIONS = new Transitions<>("Payment", Map.of(
            // A stale REQUESTED (request thread died, final write failed) is settled like UNKNOWN.
            REQUESTED, EnumSet.of(APPROVED, DECLINED, FAILED, UNKNOWN, CANCEL_OWED),
            UNKNOWN, EnumSet.of(APPROVED, FAILED, CANCEL_OWED),
            // CANCELED straight from APPROVED: the PG cancelled by itself (its console, a refund answer we lost).
            APPROVED, EnumSet.of(CANCEL_OWED, CANCELED),
            // A late approval after we told the customer "not charged".
            DECLINED, EnumSet.of(CANCEL_OWED),
            FAILED, EnumSet.of(CANCEL_OWED),
            CANCEL_OWED, EnumSet.of(CANCELED),
            CANCELED, EnumSet.noneOf(PaymentStatus.class)));

    private final PaymentId id;
    private final OrderId orderId;
    private final MemberId memberId;
    private final Money money;
    private final String paymentKey;
    private final Instant requestedAt;
    private final PaymentPurpose purpose;
    private PaymentStatus status;
    private CustomerNotice customerNotice;
    private String pgTransactionKey;
    private Instant approvedAt;
    private String failureCode;
    private String failureMessage;
    private Instant updatedAt;

    private Payment(PaymentId id, OrderId orderId, MemberId memberId, Money money, String paymentKey,
                    Instant requestedAt, PaymentPurpose purpose, PaymentStatus status, CustomerNotice customerNotice,
                    String pgTransactionKey, Instant approvedAt, String failureCode, String failureMessage,
                    Instant updatedAt) {
        this.id = Objects.requireNonNull(id);
        this.orderId = Objects.requireNonNull(orderId);
        this.memberId = Objects.requireNonNull(memberId);
        this.money = Objects.requireNonNull(money);
        this.paymentKey = Objects.requireNonNull(paymentKey);
        this.requestedAt = Objects.requireNonNull(requestedAt);
        this.purpose = Objects.requireNonNull(purpose);
        this.status = Objects.requireNonNull(status);
        this.customerNotice = Objects.requireNonNull(customerNotice);
        this.pgTransactionKey = pgTransactionKey;
        this.approvedAt = approvedAt;
        this.failureCode = failureCode;
        this.failureMessage = failureMessage;
        this.updatedAt = updatedAt;
    }

    /**
     * Starts a payment: from now on money may move, so it is recorded before the PG is called.
     *
     * @param purpose what it pays for; every event of the payment carries it, so order-service follows only the
     *                payments of its orders (docs/decisions/renewal-payments-downstream.md)
     */
    public static Payment request(PaymentId id, OrderId orderId, MemberId memberId, Money money, String paymentKey,
                                  PaymentPurpose purpose, Instant now) {
        return new Payment(id, orderId, memberId, money, paymentKey, now, purpose, REQUESTED, CustomerNotice.NONE,
                null, null, null, null, now);
    }

    /** Rebuilds a stored payment. */
    public static Payment restore(PaymentId id, OrderId orderId, MemberId memberId, Money money, String paymentKey,
                                  Instant requestedAt, PaymentPurpose purpose, PaymentStatus status,
                                  CustomerNotice customerNotice, String pgTransactionKey, Instant approvedAt,
                                  String failureCode, String failureMessage, Instant updatedAt) {
        return new Payment(id, orderId, memberId, money, paymentKey, requestedAt, purpose, status, customerNotice,
                pgTransactionKey, approvedAt, failureCode, failureMessage, updatedAt);
    }

    public PaymentRequested requested() {
        return new PaymentRequested(id.value(), orderId.value(), memberId.value(), money.amount(), money.currency(),
                paymentKey, purpose);
    }

    PaymentApproved approve(String transactionKey, Instant at) {
        moveTo(APPROVED, at);
        this.pgTransactionKey = transactionKey;
        this.approvedAt = at;
        return new PaymentApproved(id.value(), orderId.value(), memberId.value(), money.amount(), money.currency(),
                transactionKey, at, purpose);
    }

    /** Approved at the time the PG says it approved, or now when it does not say. */
    private PaymentApproved approve(PgStatus pg, Instant now) {
        return approve(pg.transactionKey(), pg.approvedAt() != null ? pg.approvedAt() : now);
    }

    PaymentDeclined decline(String code, String message, Instant at) {
        moveTo(DECLINED, at);
        this.failureCode = code;
        this.failureMessage = message;
        return new PaymentDeclined(id.value(), orderId.value(), memberId.value(), money.amount(), money.currency(),
                code, message, purpose);
    }

    PaymentFailed fail(String reason, Instant at) {
        moveTo(FAILED, at);
        this.failureCode = reason;
        return new PaymentFailed(id.value(), orderId.value(), memberId.value(), money.amount(), money.currency(), reason,
                purpose);
    }

    PaymentUnknown markUnknown(String reason, Instant at) {
        moveTo(UNKNOWN, at);
        this.failureCode = reason;
        return new PaymentUnknown(id.value(), orderId.value(), memberId.value(), money.amount(), money.currency(),
                reason, purpose);
    }

    PaymentCancelOwed owe(String reason, String transactionKey, Instant at) {
        moveTo(CANCEL_OWED, at);
        this.failureCode = reason;
        if (this.pgTransactionKey == null) {
            this.pgTransactionKey = transactionKey;
        }
        return new PaymentCancelOwed(id.value(), orderId.value(), memberId.value(), money.amount(), money.currency(),
                reason, pgTransactionKey, at, purpose);
    }

    PaymentCanceled cancel(String reason, Instant at) {
        moveTo(CANCELED, at);
        this.failureCode = reason;
        return new PaymentCanceled(id.value(), orderId.value(), memberId.value(), money.amount(), money.currency(),
                reason, at, purpose);
    }

    /**
     * The answer to our confirm, in TX-2 (payment REQUESTED). Sets what the customer is about to be told.
     *
     * <table>
     *   <tr><th>outcome</th><th>payment</th><th>customer</th></tr>
     *   <tr><td>DONE, our key, order and amount</td><td>APPROVED</td><td>APPROVED</td></tr>
     *   <tr><td>DONE or CANCELED, another key, order or amount</td><td>UNKNOWN (mismatch)</td><td>PENDING</td></tr>
     *   <tr><td>CANCELED / ABORTED / EXPIRED</td><td>FAILED</td><td>FAILED</td></tr>
     *   <tr><td>IN_PROGRESS as the confirm's own answer</td><td>UNKNOWN (async)</td><td>PENDING</td></tr>
     *   <tr><td>no usable answer, the query says NOT_FOUND / READY / IN_PROGRESS, or could not ask</td><td>UNKNOWN</td><td>PENDING</td></tr>
     *   <tr><td>card or issuer decline</td><td>DECLINED</td><td>DECLINED</td></tr>
     *   <tr><td>credentials refused (401/403 not a decline)</td><td>FAILED</td><td>FAILED</td></tr>
     *   <tr><td>never reached the PG</td><td>FAILED</td><td>FAILED</td></tr>
     * </table>
     */
    public Recorded record(PgOutcome outcome, Instant now) {
        if (status != REQUESTED) {
            throw TRANSITIONS.refused(id, status, REQUESTED);
        }
        if (outcome instanceof PgOutcome.Answered answered) {
            return recordStatus(answered.status(), null, now);
        }
        if (outcome instanceof PgOutcome.Asked asked) {
            return recordStatus(asked.status(), asked.reason(), now);
        }
        if (outcome instanceof PgOutcome.Refused refused) {
            PgRefusal refusal = refused.refusal();
            return switch (refusal.kind()) {
                case DECLINE -> recorded(Verdict.DECLINED, decline(refusal.code(), refusal.message(), now));
                case CREDENTIALS -> recorded(Verdict.CREDENTIALS_REJECTED, fail(PgOutcome.AUTH_FAILED, now));
                case UNCLEAR -> undecided(refusal.asReason(), now);
            };
        }
        if (outcome instanceof PgOutcome.NotReached) {
            return recorded(Verdict.NOTHING_CHARGED, fail(PgOutcome.CONNECT_FAILED, now));
        }
        return undecided(((PgOutcome.Unknown) outcome).reason(), now);
    }

    private Recorded recordStatus(PgStatus pg, String doubt, Instant now) {
        Optional<String> mismatch = pg.mismatchWith(this);
        if (mismatch.isPresent() || pg.state() == PgState.PARTIAL_CANCELED) {
            // Not an approval of our payment: never APPROVED. Money may have moved, so not FAILED either.
            return recorded(Verdict.MISMATCH, markUnknown(mismatch.orElse("PG_" + pg.state()), now));
        }
        return switch (pg.state()) {
            case DONE -> recorded(Verdict.APPROVED, approve(pg, now));
            case CANCELED, ABORTED, EXPIRED -> recorded(Verdict.NOTHING_CHARGED, fail("PG_" + pg.state(), now));
            case IN_PROGRESS -> doubt == null
                    ? recorded(Verdict.PROCESSING_ASYNC, markUnknown(PgOutcome.ACCEPTED_ASYNC, now))
                    : undecided(doubt, now);
            // A NOT_FOUND right after a lost answer may still be booked: UNKNOWN, never FAILED (docs/resilience.md).
            default -> undecided(doubt != null ? doubt : "PG_" + pg.state(), now);
        };
    }

    private Recorded undecided(String reason, Instant now) {
        Verdict verdict = PgOutcome.READ_TIMEOUT.equals(reason) ? Verdict.TIMED_OUT : Verdict.UNDECIDED;
        return recorded(verdict, markUnknown(reason, now));
    }

    private Recorded recorded(Verdict verdict, PaymentEvent event) {
        told(verdict.notice());
        return new Recorded(verdict, event);
    }

    /**
     * The PG's status of this payment, asked later. Run under the payment's row lock, so it decides on what is
     * recorded now, including a customer's give-up that happened while the PG was being asked. Where the PG holds money
     * the customer must not keep, the cancel is written as owed first (CANCEL_OWED, durable) and then sent: a cancel
     * that fails or is lost is retried by reconciliation, never forgotten (docs/decisions/cancel-owed.md).
     *
     * <table>
     *   <tr><th>payment</th><th>PG says</th><th>action</th></tr>
     *   <tr><td>REQUESTED / UNKNOWN</td><td>DONE, ours; customer told FAILED or order not payable</td><td>CANCEL_AT_PG (now CANCEL_OWED)</td></tr>
     *   <tr><td>REQUESTED / UNKNOWN</td><td>DONE, ours</td><td>APPROVED</td></tr>
     *   <tr><td>REQUESTED / UNKNOWN</td><td>CANCELED / ABORTED / EXPIRED</td><td>FAILED</td></tr>
     *   <tr><td>REQUESTED / UNKNOWN</td><td>NOT_FOUND, older than notFoundIsFinalAfter</td><td>FAILED</td></tr>
     *   <tr><td>REQUESTED / UNKNOWN</td><td>NOT_FOUND (young), READY, IN_PROGRESS</td><td>RETRY_LATER</td></tr>
     *   <tr><td>DECLINED / FAILED</td><td>DONE, ours (a late approval)</td><td>CANCEL_AT_PG (now CANCEL_OWED)</td></tr>
     *   <tr><td>FAILED, never reached the PG</td><td>DONE, ours</td><td>NONE: another confirm's approval</td></tr>
     *   <tr><td>CANCEL_OWED</td><td>DONE, ours</td><td>CANCEL_AT_PG (again)</td></tr>
     *   <tr><td>CANCEL_OWED</td><td>CANCELED</td><td>CANCELED</td></tr>
     *   <tr><td>APPROVED</td><td>DONE, ours</td><td>NONE</td></tr>
     *   <tr><td>APPROVED</td><td>CANCELED</td><td>CANCELED (the PG gave the money back)</td></tr>
     *   <tr><td>APPROVED</td><td>PARTIAL_CANCELED or CANCELED, every cancel one of our refunds</td><td>NONE</td></tr>
     *   <tr><td>APPROVED</td><td>PARTIAL_CANCELED, a cancel that is not our refund</td><td>MISMATCH</td></tr>
     *   <tr><td>CANCEL_OWED</td><td>PARTIAL_CANCELED</td><td>CANCEL_AT_PG (the balance is still owed)</td></tr>
     *   <tr><td>DECLINED / FAILED / CANCELED</td><td>anything but DONE</td><td>NONE</td></tr>
     *   <tr><td>any</td><td>another key, order or amount; a partial cancel of a payment never approved; a state contradicting what we hold</td><td>MISMATCH</td></tr>
     * </table>
     */
    public Decision<SyncAction> settleWith(PgStatus pg, SettleCircumstances circumstances) {
        // A partial cancel is ours only on a payment that can have refunds: approved, or owed its balance back.
        boolean ours = pg.mismatchWith(this).isEmpty()
                && (pg.state() != PgState.PARTIAL_CANCELED || status == APPROVED || status == CANCEL_OWED);
        boolean done = pg.state() == PgState.DONE;
        Instant now = circumstances.now();
        return switch (status) {
            case REQUESTED, UNKNOWN -> !ours ? Decision.of(SyncAction.MISMATCH) : switch (pg.state()) {
                case DONE -> customerNotice == CustomerNotice.FAILED || !circumstances.orderPayable()
                        ? Decision.wrote(SyncAction.CANCEL_AT_PG, owe(COMPENSATION, pg.transactionKey(), now))
                        : Decision.wrote(SyncAction.APPROVED, approve(pg, now));
                // Money that moved and was given back at the PG: the customer kept nothing (000's missing branch).
                case CANCELED -> Decision.wrote(SyncAction.FAILED, fail(PG_CANCELED, now));
                case ABORTED, EXPIRED -> Decision.wrote(SyncAction.FAILED, fail("PG_" + pg.state(), now));
                case NOT_FOUND -> requestedAt.plus(circumstances.notFoundIsFinalAfter()).isBefore(now)
                        ? Decision.wrote(SyncAction.FAILED, fail(PG_NOT_FOUND, now))
                        : Decision.of(SyncAction.RETRY_LATER);
                default -> Decision.of(SyncAction.RETRY_LATER);
            };
            case APPROVED -> !ours ? Decision.of(SyncAction.MISMATCH) : switch (pg.state()) {
                case DONE -> Decision.of(SyncAction.NONE);
                // Our partial refunds, each its own record; one the PG booked that we did not ask for: a human looks.
                case PARTIAL_CANCELED -> circumstances.refundsExplainCancels() ? Decision.of(SyncAction.NONE)
                        : Decision.of(SyncAction.MISMATCH);
                // Refunded in full by our refunds: it stays APPROVED with nothing left to refund.
                case CANCELED -> circumstances.refundsExplainCancels() ? Decision.of(SyncAction.NONE)
                        : Decision.wrote(SyncAction.CANCELED, cancel(PG_CANCELED, now));
                // The PG has no approval we hold as approved: the books disagree, a human decides.
                default -> Decision.of(SyncAction.MISMATCH);
            };
            case DECLINED, FAILED -> !done ? Decision.of(SyncAction.NONE)
                    : !ours ? Decision.of(SyncAction.MISMATCH)
                    // Our confirm never left us, so this approval under our key is another confirm's, not ours.
                    : neverReachedPg() ? Decision.of(SyncAction.NONE)
                    // The customer was told "not charged" and the PG booked it after all: give it back.
                    : Decision.wrote(SyncAction.CANCEL_AT_PG, owe(LATE_APPROVAL, pg.transactionKey(), now));
            case CANCEL_OWED -> !ours ? Decision.of(SyncAction.MISMATCH) : switch (pg.state()) {
                case DONE, PARTIAL_CANCELED -> Decision.of(SyncAction.CANCEL_AT_PG);
                // Our earlier cancel reached the PG and its answer was lost.
                case CANCELED -> Decision.wrote(SyncAction.CANCELED, cancel(failureCode, now));
                // We owe a cancel of a charge the PG does not show: the books disagree, a human decides.
                default -> Decision.of(SyncAction.MISMATCH);
            };
            case CANCELED -> done ? Decision.of(SyncAction.MISMATCH) : Decision.of(SyncAction.NONE);
        };
    }

    /**
     * When a sync may decide what it left undecided now: a payment still REQUESTED or UNKNOWN that the PG has no
     * record of is FAILED once {@code notFoundIsFinalAfter} has passed since its request ({@link #settleWith}), so
     * asking before then can only find it booked. Empty for every other answer: when READY or IN_PROGRESS ends is
     * the PG's to know.
     */
    public Optional<Instant> decidableAt(PgStatus pg, Duration notFoundIsFinalAfter) {
        return (status == REQUESTED || status == UNKNOWN) && pg.state() == PgState.NOT_FOUND
                ? Optional.of(requestedAt.plus(notFoundIsFinalAfter)) : Optional.empty();
    }

    /**
     * The PG's answer to our own cancel of the charge we owe back. Only a CANCELED answer is written: the payment
     * never says CANCELED while the PG may still hold the money.
     */
    public Decision<SyncAction> canceledAtPg(PgStatus answer, Instant now) {
        if (status == CANCELED) {
            return Decision.of(SyncAction.NONE);
        }
        if (status != CANCEL_OWED) {
            throw TRANSITIONS.refused(id, status, CANCELED);
        }
        if (answer.state() != PgState.CANCELED || !answer.mismatchWith(this).isEmpty()) {
            return Decision.of(SyncAction.RETRY_LATER);
        }
        return Decision.wrote(SyncAction.CANCELED, cancel(failureCode, now));
    }

    /**
     * A member asks for their approved payment back: from now on a cancel is owed, and retried until the PG confirms
     * it (docs/decisions/cancel-owed.md). The payment says CANCELED only once the PG does.
     */
    public PaymentCancelOwed refundRequested(Instant now) {
        return owe(REFUNDED, pgTransactionKey, now);
    }

    private boolean neverReachedPg() {
        return status == FAILED && (PgOutcome.CONNECT_FAILED.equals(failureCode) || PgOutcome.AUTH_FAILED.equals(failureCode));
    }

    /**
     * The customer stops waiting for a payment whose outcome is unknown and is told "you will not be charged"
     * (docs/decisions/payment-cancel.md). From now on a charge the PG made is cancelled, never kept.
     *
     * @return whether this changed anything (false: already given up)
     * @throws IllegalTransitionException unless the payment is UNKNOWN
     */
    public boolean customerGaveUp() {
        if (status != UNKNOWN) {
            throw TRANSITIONS.refused(id, status, status);
        }
        if (customerNotice == CustomerNotice.FAILED) {
            return false;
        }
        told(CustomerNotice.FAILED);
        return true;
    }

    /** Records what the customer was told; said once the answer is decided, in the same transaction. */
    public void told(CustomerNotice notice) {
        this.customerNotice = Objects.requireNonNull(notice);
    }

    private void moveTo(PaymentStatus target, Instant at) {
        this.status = TRANSITIONS.check(id, status, target);
        this.updatedAt = at;
    }

    public PaymentId id() {
        return id;
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

    public String paymentKey() {
        return paymentKey;
    }

    public Instant requestedAt() {
        return requestedAt;
    }

    public PaymentPurpose purpose() {
        return purpose;
    }

    public PaymentStatus status() {
        return status;
    }

    public CustomerNotice customerNotice() {
        return customerNotice;
    }

    public String pgTransactionKey() {
        return pgTransactionKey;
    }

    public Instant approvedAt() {
        return approvedAt;
    }

    public String failureCode() {
        return failureCode;
    }

    public String failureMessage() {
        return failureMessage;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
