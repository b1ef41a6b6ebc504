package dev.payments.reconciliation.application.settling;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.settling.Settlement;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Instant;
import java.util.Optional;

/**
 * A payment with no final outcome, or an order stuck in PAYMENT_PENDING, past the long deadline.
 *
 * @param paymentStatus the payment as the projection has it, or null if no event of it was seen
 * @param since         since when it has been so (producer's clock)
 * @param settlement    what the settler did about it, if anything
 */
public record Overdue(PaymentId paymentId, OrderId orderId, Money amount, PaymentStatus paymentStatus, Instant since,
                      Optional<Settlement> settlement) {
}
