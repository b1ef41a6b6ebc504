package dev.payments.payment.domain;

import dev.payments.contracts.Money;
import dev.payments.contracts.PaymentPurpose;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Builds payments in any state through the aggregate's own verbs ({@link Payment#record}, {@link Payment#settleWith},
 * {@link Payment#canceledAtPg}, {@link Payment#customerGaveUp}), never through {@code restore} or setters, so a payment
 * built here is one the real code can produce.
 */
public final class PaymentTestData {

    public static final Instant T0 = Instant.parse("2026-11-29T07:50:00Z");
    public static final Duration NOT_FOUND_IS_FINAL_AFTER = Duration.ofSeconds(60);

    private PaymentId id = PaymentId.newId();
    private OrderId orderId = new OrderId(UUID.randomUUID());
    private MemberId memberId = new MemberId("member-1");
    private Money money = new Money(15_000, "KRW");
    private String paymentKey;
    private Instant requestedAt = T0;
    private PaymentPurpose purpose = PaymentPurpose.ORDER;
    private final List<Consumer<Payment>> steps = new ArrayList<>();

    private PaymentTestData() {
    }

    /** A REQUESTED payment: TX-1 committed, the confirm not answered yet. */
    public static PaymentTestData aPayment() {
        return new PaymentTestData();
    }

    public PaymentTestData withId(PaymentId value) {
        this.id = value;
        return this;
    }

    public PaymentTestData forOrder(OrderId value) {
        this.orderId = value;
        return this;
    }

    public PaymentTestData forMember(MemberId value) {
        this.memberId = value;
        return this;
    }

    public PaymentTestData withAmount(long amount) {
        this.money = new Money(amount, money.currency());
        return this;
    }

    public PaymentTestData withPaymentKey(String value) {
        this.paymentKey = value;
        return this;
    }

    /** A renewal run's charge of a subscription period, not an order's payment. */
    public PaymentTestData forRenewal() {
        this.purpose = PaymentPurpose.RENEWAL;
        return this;
    }

    public PaymentTestData requestedAt(Instant value) {
        this.requestedAt = value;
        return this;
    }

    /** The confirm's answer was lost and the PG could not be asked: UNKNOWN, the customer told PENDING. */
    public PaymentTestData unknown() {
        return then(p -> p.record(new PgOutcome.Unknown(PgOutcome.READ_TIMEOUT), at()));
    }

    /** The PG approved our confirm: APPROVED, the customer told APPROVED. */
    public PaymentTestData approved() {
        return then(p -> p.record(new PgOutcome.Answered(pg(p, PgState.DONE)), at()));
    }

    /** The card company declined: DECLINED. */
    public PaymentTestData declined() {
        return then(p -> p.record(new PgOutcome.Refused(
                new PgRefusal(400, "EXCEED_MAX_CARD_LIMIT", "The card limit is exceeded.")), at()));
    }

    /** The confirm never reached the PG: FAILED, the customer told FAILED. */
    public PaymentTestData failed() {
        return then(p -> p.record(new PgOutcome.NotReached(), at()));
    }

    /** The customer stopped waiting on an UNKNOWN payment: told "you will not be charged". */
    public PaymentTestData customerGaveUp() {
        return then(Payment::customerGaveUp);
    }

    /** Reconciliation's sync with the PG saying {@code state} for our payment (order still payable). */
    public PaymentTestData settledAtPg(PgState state) {
        return then(p -> p.settleWith(pg(p, state), new SettleCircumstances(at().plus(NOT_FOUND_IS_FINAL_AFTER)
                .plusSeconds(1), true, NOT_FOUND_IS_FINAL_AFTER)));
    }

    /** The member asks for an APPROVED payment back: CANCEL_OWED. */
    public PaymentTestData refundRequested() {
        return then(p -> p.refundRequested(at()));
    }

    /** The cancel we owe, answered CANCELED by the PG: CANCELED. */
    public PaymentTestData canceledAtPg() {
        return then(p -> p.canceledAtPg(pg(p, PgState.CANCELED), at()));
    }

    public Payment build() {
        Payment payment = Payment.request(id, orderId, memberId, money,
                paymentKey != null ? paymentKey : "pk-" + orderId, purpose, requestedAt);
        steps.forEach(step -> step.accept(payment));
        return payment;
    }

    /** The PG's answer for {@code payment} in {@code state}: its key, order and amount. */
    public static PgStatus pg(Payment payment, PgState state) {
        if (state == PgState.NOT_FOUND) {
            return PgStatus.notFound();
        }
        boolean approved = state == PgState.DONE || state == PgState.CANCELED || state == PgState.PARTIAL_CANCELED;
        return new PgStatus(state, payment.paymentKey(), payment.orderId().toString(), payment.money().amount(),
                approved ? "tx-" + payment.id() : null, approved ? payment.requestedAt().plusSeconds(1) : null);
    }

    private PaymentTestData then(Consumer<Payment> step) {
        steps.add(step);
        return this;
    }

    private Instant at() {
        return requestedAt.plusSeconds(1);
    }
}
