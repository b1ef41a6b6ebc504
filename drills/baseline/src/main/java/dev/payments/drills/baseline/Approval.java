package dev.payments.drills.baseline;

/** One of 000's two broken structures, chosen by {@code baseline.structure}. */
public interface Approval {

    /** @return the payment's id once the PG approved and the payment was saved */
    String confirm(String orderId, String paymentKey, long amount);
}
