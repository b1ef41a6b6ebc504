package dev.payments.drills.baseline;

public class OrderNotFoundException extends RuntimeException {

    public OrderNotFoundException(String orderId) {
        super("no order " + orderId);
    }
}
