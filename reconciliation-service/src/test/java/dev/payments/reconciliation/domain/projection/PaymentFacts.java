package dev.payments.reconciliation.domain.projection;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.UUID;

/** Test data builder: {@code aPaymentEvent().approved().at(T1).build()}. Defaults describe one 15,000 KRW payment. */
public final class PaymentFacts {

    public static final PaymentId PAYMENT = new PaymentId(UUID.fromString("7d2e9c41-83b0-4a6e-b1f2-5e6d7c8b9a01"));
    public static final OrderId ORDER = new OrderId(UUID.fromString("0b5f8a3e-6c1d-4f7a-9a55-2d3c4b5a6f70"));
    public static final Instant T0 = Instant.parse("2026-11-29T07:50:00Z");

    private PaymentId paymentId = PAYMENT;
    private PaymentStatus status = PaymentStatus.REQUESTED;
    private String type = "PaymentRequested";
    private String reason;
    private String pgTransactionKey;
    private Instant approvedAt;
    private Instant canceledAt;
    private Instant occurredAt = T0;
    private UUID eventId = UUID.randomUUID();

    private PaymentFacts() {
    }

    public static PaymentFacts aPaymentEvent() {
        return new PaymentFacts();
    }

    public PaymentFacts requested() {
        return status(PaymentStatus.REQUESTED, "PaymentRequested");
    }

    public PaymentFacts approved() {
        status(PaymentStatus.APPROVED, "PaymentApproved");
        pgTransactionKey = "txn_0001";
        approvedAt = occurredAt;
        return this;
    }

    public PaymentFacts declined() {
        status(PaymentStatus.DECLINED, "PaymentDeclined");
        reason = "EXCEED_MAX_CARD_LIMIT";
        return this;
    }

    public PaymentFacts failed() {
        status(PaymentStatus.FAILED, "PaymentFailed");
        reason = "PG_CONNECT_FAILED";
        return this;
    }

    public PaymentFacts unknown() {
        status(PaymentStatus.UNKNOWN, "PaymentUnknown");
        reason = "PG_READ_TIMEOUT";
        return this;
    }

    public PaymentFacts canceled() {
        status(PaymentStatus.CANCELED, "PaymentCanceled");
        reason = "COMPENSATION";
        canceledAt = occurredAt;
        return this;
    }

    public PaymentFacts at(Instant when) {
        occurredAt = when;
        if (approvedAt != null) {
            approvedAt = when;
        }
        if (canceledAt != null) {
            canceledAt = when;
        }
        return this;
    }

    public PaymentFacts ofPayment(PaymentId id) {
        paymentId = id;
        return this;
    }

    public PaymentFacts withEventId(UUID id) {
        eventId = id;
        return this;
    }

    public PaymentFact build() {
        return new PaymentFact(new EventRef(eventId, type, occurredAt), paymentId, ORDER, new MemberId("member-1"),
                new Money(15_000, "KRW"), PaymentPurpose.ORDER, status, reason, status == PaymentStatus.REQUESTED ? "pk_0001" : null,
                pgTransactionKey, approvedAt, canceledAt);
    }

    private PaymentFacts status(PaymentStatus newStatus, String newType) {
        status = newStatus;
        type = newType;
        return this;
    }
}
