package dev.payments.contracts;

import java.util.UUID;

/** The order is paid: an approved payment is attached to it. */
public record OrderPaid(UUID orderId, UUID paymentId) implements OrderEvent {
}
