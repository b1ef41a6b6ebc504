package dev.payments.drills.load;

/** An order placed before the load, so that the measured request is the approval alone. */
public record PreparedOrder(int index, String orderId, String memberId, long amount) {
}
