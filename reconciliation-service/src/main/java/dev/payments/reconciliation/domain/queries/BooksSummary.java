package dev.payments.reconciliation.domain.queries;

import dev.payments.reconciliation.domain.projection.OrderStatus;
import dev.payments.reconciliation.domain.projection.PaymentStatus;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Counts of the projection by state: the seed of the ledger identity of field report 000,
 * PG approvals = PAID orders + cancellations + open incidents. Here only our own side of it: the PG's transaction
 * listing and incidents come with the ledger audit.
 *
 * @param payments  payments per status, every status present (0 when none)
 * @param orders    orders per status, every status present
 * @param conflicts events that contradicted an outcome of equal rank, over all views
 */
public record BooksSummary(Map<PaymentStatus, Long> payments, Map<OrderStatus, Long> orders, long conflicts) {

    public BooksSummary {
        payments = complete(PaymentStatus.class, payments);
        orders = complete(OrderStatus.class, orders);
    }

    /** Payments where the PG took the money, whether or not it was returned since (APPROVED + CANCELED). */
    public long approvals() {
        return payments.entrySet().stream().filter(e -> e.getKey().pgApproved()).mapToLong(Map.Entry::getValue).sum();
    }

    /** Orders that hold an approved payment: PAID, and PARTIALLY_REFUNDED (paid, part of it given back). */
    public long paidOrders() {
        return orders.entrySet().stream().filter(e -> e.getKey().holdsPayment()).mapToLong(Map.Entry::getValue).sum();
    }

    /** Approved charges the PG returned (compensations and refunds). */
    public long cancellations() {
        return payments.get(PaymentStatus.CANCELED);
    }

    /** Payments whose PG answer was lost and that reconciliation must settle. */
    public long unknown() {
        return payments.get(PaymentStatus.UNKNOWN);
    }

    /** Payments whose outcome at the PG we do not know (UNKNOWN, and REQUESTED that may be stale). */
    public long unresolved() {
        return payments.entrySet().stream().filter(e -> e.getKey().unresolved()).mapToLong(Map.Entry::getValue).sum();
    }

    public long totalPayments() {
        return payments.values().stream().mapToLong(Long::longValue).sum();
    }

    public long totalOrders() {
        return orders.values().stream().mapToLong(Long::longValue).sum();
    }

    private static <S extends Enum<S>> Map<S, Long> complete(Class<S> type, Map<S, Long> counts) {
        EnumMap<S, Long> all = new EnumMap<>(type);
        for (S status : type.getEnumConstants()) {
            all.put(status, counts.getOrDefault(status, 0L));
        }
        return Collections.unmodifiableMap(all);
    }
}
