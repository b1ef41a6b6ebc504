package dev.payments.payment.application;

import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PaymentStatus;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Operators' reads of many payments, newest first by {@code requested_at} (then by id, so the order is total and a
 * page boundary never splits or repeats a row). Reads only; no lock is taken.
 */
public interface PaymentSearch {

    /** What to match; a null field matches everything. {@code from} is inclusive, {@code to} exclusive. */
    record Criteria(PaymentId paymentId, OrderId orderId, String paymentKey, MemberId memberId, PaymentStatus status,
                    Instant from, Instant to) {

        public static Criteria everything() {
            return new Criteria(null, null, null, null, null, null, null);
        }
    }

    /** A row's place in the newest-first order: the keyset a page starts after. */
    record Position(Instant requestedAt, UUID paymentId) {

        public static Position of(Payment payment) {
            return new Position(payment.requestedAt(), payment.id().value());
        }
    }

    /** How many payments are in one not-final state and since when the oldest was requested (null when none). */
    record NotFinal(PaymentStatus status, long count, Instant oldestRequestedAt) {
    }

    /** REQUESTED, UNKNOWN and CANCEL_OWED, each with its count (0 included). */
    List<NotFinal> notFinal();

    /** At most {@code limit} rows strictly older than {@code after} (all, newest first, when it is null). */
    List<Payment> olderThan(Criteria criteria, Position after, int limit);

    /** At most {@code limit} rows strictly newer than {@code before}, the ones nearest to it, newest first. */
    List<Payment> newerThan(Criteria criteria, Position before, int limit);

    /** How many rows match, counting no further than {@code limit}. */
    long countUpTo(Criteria criteria, long limit);

    /** Every matching row, newest first, to {@code row} one at a time, never more than {@code limit}. */
    void forEach(Criteria criteria, int limit, Consumer<Payment> row);
}
