package dev.payments.payment.application;

import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.Refund;
import dev.payments.payment.domain.RefundId;
import dev.payments.payment.domain.RefundStatus;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Refunds and the payments' refund amounts in memory, with the database's rule: never above the approved amount. */
final class InMemoryRefunds implements Refunds {

    private final Map<RefundId, Refund> byId = new LinkedHashMap<>();
    private final Map<PaymentId, long[]> amounts = new HashMap<>();
    private final Map<PaymentId, Long> approved = new HashMap<>();

    void approved(PaymentId payment, long amount) {
        approved.put(payment, amount);
    }

    @Override
    public void insert(Refund refund) {
        byId.put(refund.id(), refund);
    }

    @Override
    public void update(Refund refund) {
        byId.put(refund.id(), refund);
    }

    @Override
    public Optional<Refund> findById(RefundId id) {
        return Optional.ofNullable(byId.get(id));
    }

    @Override
    public List<Refund> findByPayment(PaymentId paymentId) {
        return new ArrayList<>(byId.values().stream().filter(r -> r.paymentId().equals(paymentId)).toList());
    }

    @Override
    public boolean reserve(PaymentId paymentId, long amount) {
        long[] a = amounts.computeIfAbsent(paymentId, k -> new long[2]);
        if (a[0] + a[1] + amount > approved.getOrDefault(paymentId, 0L)) {
            return false;
        }
        a[1] += amount;
        return true;
    }

    @Override
    public void book(PaymentId paymentId, long amount, RefundStatus before, RefundStatus after) {
        long[] a = amounts.computeIfAbsent(paymentId, k -> new long[2]);
        if (before.holdsReservation() && !after.holdsReservation()) {
            a[1] -= amount;
        }
        if (after == RefundStatus.SUCCEEDED && before != RefundStatus.SUCCEEDED) {
            a[0] += amount;
        }
    }

    @Override
    public RefundAmounts amounts(PaymentId paymentId) {
        long[] a = amounts.getOrDefault(paymentId, new long[2]);
        return new RefundAmounts(approved.getOrDefault(paymentId, 0L), a[0], a[1]);
    }

    @Override
    public List<PaymentId> withUnsettledRefunds(Instant before, int limit) {
        return byId.values().stream().filter(r -> r.status().holdsReservation() && r.updatedAt().isBefore(before))
                .map(Refund::paymentId).distinct().limit(limit).toList();
    }
}
