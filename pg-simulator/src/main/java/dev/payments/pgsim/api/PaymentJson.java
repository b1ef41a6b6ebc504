package dev.payments.pgsim.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.payments.pgsim.ledger.BillingKeys;
import dev.payments.pgsim.ledger.Cancel;
import dev.payments.pgsim.ledger.Failure;
import dev.payments.pgsim.ledger.Payment;
import dev.payments.pgsim.ledger.Transaction;
import dev.payments.pgsim.ledger.TransactionPage;
import java.time.Instant;
import java.util.List;

/** The wire shapes of the gateway API (Toss v1 Payment object and friends). */
public final class PaymentJson {

    private PaymentJson() {
    }

    /** Toss's Payment object, the fields a merchant server reads. Nulls are printed, as Toss does. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record PaymentBody(
            String mId,
            String version,
            String paymentKey,
            String orderId,
            String type,
            String method,
            String status,
            String currency,
            long totalAmount,
            long balanceAmount,
            String requestedAt,
            String approvedAt,
            String lastTransactionKey,
            List<CancelBody> cancels,
            Failure failure) {
    }

    /** Toss's billing-key object (the answer to issuing a key). */
    public record BillingKeyBody(String mId, String customerKey, String authenticatedAt, String method,
                                 String billingKey, String cardCompany, String cardNumber) {
    }

    public static BillingKeyBody of(BillingKeys.BillingKey key) {
        return new BillingKeyBody("tosspayments", key.customerKey(), Timestamps.format(key.authenticatedAt()), "CARD",
                key.billingKey(), "SIMULATED", "43301234****123*");
    }

    /** Toss's cancel object; {@code refundableAmount} is what was left to cancel after this one. */
    public record CancelBody(long cancelAmount, String canceledAt, String transactionKey, String cancelReason,
                             long refundableAmount, String cancelStatus) {
    }

    public record TransactionBody(
            String transactionKey,
            String paymentKey,
            String orderId,
            String type,
            long amount,
            String currency,
            String transactedAt) {
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record TransactionListBody(List<TransactionBody> transactions, boolean hasNext, String nextCursor) {
    }

    /** The callback (webhook) body, shaped like Toss's PAYMENT_STATUS_CHANGED event. */
    public record CallbackBody(String eventType, String createdAt, PaymentBody data) {
    }

    public static PaymentBody of(Payment p) {
        List<CancelBody> cancels = p.cancels().stream().map(PaymentJson::of).toList();
        return new PaymentBody("tosspayments", "2022-11-16", p.paymentKey(), p.orderId(), "NORMAL", "CARD",
                p.status().name(), Transaction.CURRENCY, p.totalAmount(), p.balanceAmount(),
                Timestamps.format(p.requestedAt()), Timestamps.format(p.approvedAt()), p.lastTransactionKey(), cancels,
                p.failure());
    }

    public static CallbackBody callback(Payment p, Instant createdAt) {
        return new CallbackBody("PAYMENT_STATUS_CHANGED", Timestamps.format(createdAt), of(p));
    }

    static TransactionListBody of(TransactionPage page) {
        List<TransactionBody> lines = page.transactions().stream()
                .map(t -> new TransactionBody(t.transactionKey(), t.paymentKey(), t.orderId(), t.type().name(), t.amount(),
                        Transaction.CURRENCY, Timestamps.format(t.transactedAt())))
                .toList();
        return new TransactionListBody(lines, page.hasNext(), page.nextCursor());
    }

    private static CancelBody of(Cancel c) {
        return new CancelBody(c.cancelAmount(), Timestamps.format(c.canceledAt()), c.transactionKey(), c.cancelReason(),
                c.refundableAmount(), "DONE");
    }
}
