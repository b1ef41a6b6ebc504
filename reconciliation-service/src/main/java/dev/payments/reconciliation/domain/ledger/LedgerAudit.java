package dev.payments.reconciliation.domain.ledger;

import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentPurpose;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.projection.RefundView;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The matching rules of the ledger audit (docs/reconciliation.md, "Ledger audit"). Each PG approval is matched to
 * exactly one of: a PAID order with an APPROVED payment of the same amount; a renewal charge (an APPROVED payment
 * whose purpose is a subscription period: no order exists for it); a cancellation (the PG booked a CANCEL for
 * the same payment key, and our payment is CANCELED or FAILED and its order not PAID by it); an incident record; or
 * "in flight" while younger than the settle deadline or while the settler is on the payment (UNKNOWN, stale
 * REQUESTED, or CANCEL_OWED: a cancel we owe and have not had confirmed yet). Anything else is a mismatch with a reason. Consistent books win over
 * an incident (an incident whose payment was repaired since no longer explains anything); the in-flight grace never
 * excuses a wrong amount. The other direction is checked too: an approval we recorded that the PG has no transaction
 * for.
 */
public final class LedgerAudit {

    /**
     * Our approval time comes from the PG's answer and its booking time from its books; approvals this close to the
     * window's start may have been booked just before it, so they are not reported missing.
     */
    static final Duration CLOCK_SKEW = Duration.ofMinutes(1);

    private LedgerAudit() {
    }

    /** What a PG approval was matched to; the identity's terms. */
    public enum Match {
        /** A PAID order with an APPROVED payment of the same amount. */
        PAID,
        /**
         * An APPROVED renewal charge (a subscription period; no order exists for it) of the same amount
         * (docs/decisions/renewal-payments-downstream.md).
         */
        RENEWAL,
        /** The PG returned the money (a CANCEL for the same payment key) and our books say so. */
        CANCELLATION,
        /** An incident record accounts for it: a human is on it. */
        INCIDENT,
        /** Younger than the settle deadline, or the settler is on its payment. */
        IN_FLIGHT,
        /** Nothing accounts for it: a mismatch. */
        MISMATCH
    }

    /**
     * One PG transaction as the audit saw it: for an approval, what it was matched to (and why not, for a mismatch);
     * for a cancel, the match of the approval it returned the money of ({@code cancels}: that approval's transaction
     * key; null if the period holds no approval with its payment key).
     */
    public record Line(PgTransaction transaction, Match match, MismatchReason reason, PaymentView payment,
                       OrderView order, Incident incident, String cancels) {
    }

    public static LedgerReport audit(List<PgTransaction> transactions, LedgerBooks books, Instant from, Instant to,
                                     Instant now, Duration inFlight) {
        return audit(transactions, books, from, to, now, inFlight, line -> {
        });
    }

    /**
     * The audit of one window read whole, handing each transaction's line to {@code each} as it is matched
     * (approvals in booking order, then cancels in booking order): the finance export is the audit itself, so its
     * rows add up to the report's terms.
     */
    public static LedgerReport audit(List<PgTransaction> transactions, LedgerBooks books, Instant from, Instant to,
                                     Instant now, Duration inFlight, Consumer<Line> each) {
        Window window = new Window(from, to, now, inFlight, each);
        window.add(from, to, transactions, books);
        return window.report();
    }

    /**
     * A window audited slice by slice, newest first, so that one slice's listing and books are held at a time
     * instead of the whole window's (about 1.5 KB per PG transaction, docs/benchmarks/export.md: a 24-hour window at
     * 5 approvals/s would hold 650 MB). What crosses slices is small and bounded: the PG's cancels (a cancel comes
     * after its approval, so by the time a slice is matched every later cancel of its approvals has been read), the
     * approval keys of the slice read before (our approval booked by the PG up to a slice later is not "missing"),
     * our approvals near a slice's start still to look for in the older slice, and the payments matched without
     * their transaction key (so that one payment explains one approval only).
     */
    public static final class Window {

        private final Instant from;
        private final Instant to;
        private final Instant now;
        private final Instant youngAfter;
        private final Consumer<Line> each;
        private final Map<String, Cancels> cancels = new HashMap<>();
        private final List<PgTransaction> cancelTransactions = new ArrayList<>();
        private final Map<String, Line> approvalByPaymentKey = new HashMap<>();
        private final Set<PaymentId> matchedWithoutTransactionKey = new HashSet<>();
        private final List<LedgerMismatch> mismatches = new ArrayList<>();
        private final Map<Match, Long> counts = new EnumMap<>(Match.class);
        private LedgerMoney money = LedgerMoney.NONE;
        private long pgApprovals;
        private Set<String> laterApprovalKeys = Set.of();
        private List<LedgerMismatch> missingNearLaterStart = List.of();
        private Instant next;

        /** @param each receives every transaction's line: approvals as their slice is matched, cancels at the end */
        public Window(Instant from, Instant to, Instant now, Duration inFlight, Consumer<Line> each) {
            this.from = from;
            this.to = to;
            this.now = now;
            this.youngAfter = now.minus(inFlight);
            this.each = each;
            this.next = to;
        }

        /**
         * Matches the slice {@code [sliceFrom, sliceTo)}; slices come newest first and without gaps.
         *
         * @param transactions the PG's transactions booked in the slice
         * @param books        our payments of the orders those transactions name and those approved in the slice,
         *                     their orders, every incident record, and the refunds of those payments
         */
        public void add(Instant sliceFrom, Instant sliceTo, List<PgTransaction> transactions, LedgerBooks books) {
            if (!sliceTo.equals(next) || sliceFrom.isAfter(sliceTo) || sliceFrom.isBefore(from)) {
                throw new IllegalArgumentException("slices run newest first without gaps: expected one ending at "
                        + next + ", got [" + sliceFrom + ", " + sliceTo + ")");
            }
            next = sliceFrom;
            List<PgTransaction> approvals = new ArrayList<>();
            Set<String> approvalKeys = new HashSet<>();
            for (PgTransaction t : transactions) {
                if (t.type() == PgTransaction.Type.CANCEL) {
                    cancelTransactions.add(t);
                    if (t.paymentKey() != null) {
                        cancels.merge(t.paymentKey(), Cancels.of(t), Cancels::plus);
                    }
                } else {
                    approvals.add(t);
                    approvalKeys.add(t.transactionKey());
                }
            }
            approvals.sort(Comparator.comparing(PgTransaction::transactedAt));
            pgApprovals += approvals.size();
            Index index = new Index(books);
            Set<PaymentId> used = new HashSet<>(matchedWithoutTransactionKey);
            for (PgTransaction approval : approvals) {
                match(approval, index, used);
            }
            for (LedgerMismatch missing : missingNearLaterStart) {
                if (!approvalKeys.contains(missing.transactionKey())) {
                    mismatches.add(missing);
                }
            }
            findMissing(books, index, sliceFrom, sliceTo, approvalKeys);
            laterApprovalKeys = approvalKeys;
        }

        /** The window's report; hands the cancels' lines on. */
        public LedgerReport report() {
            if (!next.equals(from)) {
                throw new IllegalStateException("the window is audited down to " + next + ", not to " + from);
            }
            cancelTransactions.sort(Comparator.comparing(PgTransaction::transactedAt));
            for (PgTransaction cancel : cancelTransactions) {
                Line approval = cancel.paymentKey() == null ? null : approvalByPaymentKey.get(cancel.paymentKey());
                each.accept(approval == null
                        ? new Line(cancel, null, null, null, null, null, null)
                        : new Line(cancel, approval.match(), approval.reason(), approval.payment(), approval.order(),
                        approval.incident(), approval.transaction().transactionKey()));
            }
            List<LedgerMismatch> ordered = new ArrayList<>(mismatches);
            ordered.sort(Comparator.comparing(LedgerMismatch::at).thenComparing(LedgerMismatch::transactionKey,
                    Comparator.nullsFirst(Comparator.naturalOrder())));
            return new LedgerReport(now, from, to, pgApprovals, cancelTransactions.size(), count(Match.PAID),
                    count(Match.RENEWAL), count(Match.CANCELLATION), count(Match.INCIDENT), count(Match.IN_FLIGHT),
                    ordered, money);
        }

        private long count(Match match) {
            return counts.getOrDefault(match, 0L);
        }

        private void match(PgTransaction approval, Index index, Set<PaymentId> used) {
            Optional<OrderId> orderId = OrderId.tryParse(approval.orderId());
            PaymentView payment = index.paymentFor(approval, orderId, used);
            if (payment != null) {
                used.add(payment.paymentId());
                if (!approval.transactionKey().equals(payment.pgTransactionKey())) {
                    matchedWithoutTransactionKey.add(payment.paymentId());
                }
            }
            OrderView order = orderId.map(index.orders::get).orElse(null);
            Cancels returned = approval.paymentKey() == null ? null : cancels.get(approval.paymentKey());
            PgTransaction cancel = returned == null ? null : returned.first();
            PgTransaction lastCancel = returned == null ? null : returned.last();
            long pgBack = returned == null ? 0 : returned.amount();
            long ourBack = payment == null ? 0 : index.refunded(payment.paymentId());
            boolean refundsInFlight = payment != null && index.refundsInFlight(payment.paymentId());
            Incident incident = index.incidentFor(payment, approval.transactionKey());
            // An unresolved payment (UNKNOWN, stale REQUESTED) is being settled: the settler either settles it or,
            // past its escalation deadline, opens an incident for it (then counted as one). Until then it is in flight.
            boolean settling = payment != null && payment.status().unresolved();
            boolean young = approval.transactedAt().isAfter(youngAfter)
                    || (lastCancel != null && lastCancel.transactedAt().isAfter(youngAfter))
                    || settling;

            Match match;
            MismatchReason reason = null;
            if (payment != null && !sameAmount(payment, approval)) {
                match = incident != null ? Match.INCIDENT : Match.MISMATCH;
                reason = MismatchReason.AMOUNT_MISMATCH;
            } else if (payment != null && payment.status() == PaymentStatus.APPROVED && (pgBack > 0 || ourBack > 0)
                    && !(ourBack == 0 && pgBack >= approval.amount())) {
                // Partial refunds (docs/refunds.md): every cancel the PG booked of an approved payment must be one of
                // our succeeded refunds, in money; refunded in full that way, the money went back like a cancellation.
                // A whole cancel none of our refunds explains is the rule below (cancelled at the PG, not here).
                if (pgBack == ourBack && ourBack >= approval.amount()) {
                    match = Match.CANCELLATION;
                } else if (pgBack == ourBack && order != null && order.status().holdsPayment()
                        && payment.paymentId().equals(order.paymentId())) {
                    match = Match.PAID;
                } else if (pgBack == ourBack && payment.purpose() == PaymentPurpose.RENEWAL) {
                    match = Match.RENEWAL;
                } else {
                    match = incident != null ? Match.INCIDENT : young || refundsInFlight ? Match.IN_FLIGHT : Match.MISMATCH;
                    reason = pgBack == ourBack ? MismatchReason.ORDER_NOT_PAID : MismatchReason.REFUND_MISMATCH;
                }
            } else if (cancel != null) {
                // The order may be PAID by another attempt (the customer paid again after we said "failed" and the PG
                // approved the first one late): this payment's cancel still returned its money.
                if (payment != null && (payment.status() == PaymentStatus.CANCELED
                        || payment.status() == PaymentStatus.FAILED)
                        && (order == null || !order.status().holdsPayment()
                            || !payment.paymentId().equals(order.paymentId()))
                        && pgBack >= approval.amount()) {
                    match = Match.CANCELLATION;
                } else if (payment != null && (payment.status() == PaymentStatus.CANCELED
                        || payment.status() == PaymentStatus.FAILED) && pgBack < approval.amount()) {
                    // Cancelled here, but the PG gave back only part of it: it still holds the rest.
                    match = incident != null ? Match.INCIDENT : young ? Match.IN_FLIGHT : Match.MISMATCH;
                    reason = MismatchReason.REFUND_MISMATCH;
                } else {
                    match = incident != null ? Match.INCIDENT : young ? Match.IN_FLIGHT : Match.MISMATCH;
                    reason = payment == null ? MismatchReason.NO_PAYMENT_RECORD
                            : payment.status().unresolved() ? MismatchReason.PAYMENT_UNSETTLED
                            : MismatchReason.CANCELED_AT_PG_NOT_HERE;
                }
            } else if (payment != null && payment.status() == PaymentStatus.APPROVED && order != null
                    && order.status().holdsPayment() && payment.paymentId().equals(order.paymentId())) {
                match = Match.PAID;
            } else if (payment != null && payment.status() == PaymentStatus.APPROVED
                    && payment.purpose() == PaymentPurpose.RENEWAL) {
                // A renewal charge pays a subscription period, not an order: kept money with its own trace
                // (docs/decisions/renewal-payments-downstream.md).
                match = Match.RENEWAL;
            } else {
                match = incident != null ? Match.INCIDENT : young ? Match.IN_FLIGHT : Match.MISMATCH;
                reason = keptReason(payment,
                        orderId.map(id -> index.accountedFor(id, approval, used)).orElse(false));
            }
            counts.merge(match, 1L, Long::sum);
            long ourAmount = payment == null ? 0 : payment.amount().amount();
            money = money.plus(match, approval.amount(), pgBack, ourAmount,
                    match == Match.CANCELLATION ? ourAmount : ourBack);
            Line line = new Line(approval, match, reason, payment, order, incident, null);
            if (returned != null) {
                approvalByPaymentKey.putIfAbsent(approval.paymentKey(), line);
            }
            each.accept(line);
            if (match == Match.MISMATCH) {
                mismatches.add(new LedgerMismatch(approval.transactionKey(), approval.orderId(), approval.paymentKey(),
                        payment == null ? null : payment.paymentId(), approval.amount(), approval.currency(), reason,
                        describe(reason, approval, payment, order, cancel, pgBack, ourBack), approval.transactedAt()));
            }
        }

        /**
         * Our approvals in the slice that the PG's books have no transaction for, in this slice or the later one; one
         * approved near the slice's start may have been booked in the older slice, so it waits for that one.
         */
        private void findMissing(LedgerBooks books, Index index, Instant sliceFrom, Instant sliceTo,
                                 Set<String> approvalKeys) {
            Instant checkedFrom = from.plus(CLOCK_SKEW);
            Instant nearStart = sliceFrom.plus(CLOCK_SKEW);
            List<LedgerMismatch> nearStartMissing = new ArrayList<>();
            for (PaymentView payment : books.payments()) {
                if (!payment.status().pgApproved() || payment.pgTransactionKey() == null || payment.approvedAt() == null
                        || approvalKeys.contains(payment.pgTransactionKey())
                        || laterApprovalKeys.contains(payment.pgTransactionKey())
                        || payment.approvedAt().isBefore(checkedFrom) || payment.approvedAt().isBefore(sliceFrom)
                        || !payment.approvedAt().isBefore(sliceTo)
                        || payment.approvedAt().isAfter(youngAfter)
                        || index.incidentFor(payment, payment.pgTransactionKey()) != null) {
                    continue;
                }
                LedgerMismatch missing = new LedgerMismatch(payment.pgTransactionKey(), payment.orderId().toString(),
                        payment.paymentKey(), payment.paymentId(), payment.amount().amount(),
                        payment.amount().currency(), MismatchReason.NO_PG_APPROVAL,
                        "We recorded payment " + payment.paymentId() + " as " + payment.status()
                                + " with PG transaction " + payment.pgTransactionKey() + " at " + payment.approvedAt()
                                + ", but the PG's books have no such approval",
                        payment.approvedAt());
                if (payment.approvedAt().isBefore(nearStart)) {
                    nearStartMissing.add(missing);
                } else {
                    mismatches.add(missing);
                }
            }
            missingNearLaterStart = nearStartMissing;
        }
    }

    /** The PG's cancels of one payment key: the first, the last, and what they gave back together. */
    private record Cancels(PgTransaction first, PgTransaction last, long amount) {

        static Cancels of(PgTransaction cancel) {
            return new Cancels(cancel, cancel, cancel.amount());
        }

        Cancels plus(Cancels other) {
            return new Cancels(earlier(first, other.first), later(last, other.last), amount + other.amount);
        }

        private static PgTransaction earlier(PgTransaction a, PgTransaction b) {
            return b.transactedAt().isBefore(a.transactedAt()) ? b : a;
        }

        private static PgTransaction later(PgTransaction a, PgTransaction b) {
            return b.transactedAt().isAfter(a.transactedAt()) ? b : a;
        }
    }

    private static MismatchReason keptReason(PaymentView payment, boolean orderHasMatchedPayment) {
        if (payment == null) {
            return orderHasMatchedPayment ? MismatchReason.DUPLICATE_APPROVAL : MismatchReason.NO_PAYMENT_RECORD;
        }
        return switch (payment.status()) {
            case REQUESTED, UNKNOWN, CANCEL_OWED -> MismatchReason.PAYMENT_UNSETTLED;
            case FAILED, DECLINED -> MismatchReason.PAYMENT_NOT_APPROVED;
            case CANCELED -> MismatchReason.CANCELED_HERE_NOT_AT_PG;
            case APPROVED -> MismatchReason.ORDER_NOT_PAID;
        };
    }

    private static boolean sameAmount(PaymentView payment, PgTransaction approval) {
        return payment.amount().amount() == approval.amount()
                && (approval.currency() == null || approval.currency().equals(payment.amount().currency()));
    }

    private static String describe(MismatchReason reason, PgTransaction approval, PaymentView payment,
                                   OrderView order, PgTransaction cancel, long pgBack, long ourBack) {
        String pg = "PG approved " + approval.amount() + " " + (approval.currency() == null ? "" : approval.currency())
                + " for order " + approval.orderId() + " at " + approval.transactedAt()
                + (cancel != null ? " and cancelled it at " + cancel.transactedAt() : "");
        String ours = payment == null ? "we have no payment for it"
                : "our payment " + payment.paymentId() + " is " + payment.status() + " (" + payment.amount() + ")"
                + ", order " + (order == null ? "not seen" : order.status());
        return reason == MismatchReason.DUPLICATE_APPROVAL
                ? pg + "; another approval already accounts for the order's payment"
                : reason == MismatchReason.REFUND_MISMATCH
                ? pg + "; the PG gave back " + pgBack + " of it, our succeeded refunds " + ourBack + "; " + ours
                : pg + "; " + ours;
    }


    /** Look-ups over our books, built once per audit. */
    private static final class Index {

        final Map<String, PaymentView> byTransactionKey = new HashMap<>();
        final Map<String, PaymentView> byPaymentKey = new HashMap<>();
        final Map<OrderId, List<PaymentView>> byOrder = new HashMap<>();
        final Map<OrderId, OrderView> orders = new HashMap<>();
        final Map<PaymentId, Incident> incidentsByPayment = new HashMap<>();
        final Map<String, Incident> incidentsByTransaction = new HashMap<>();
        final Map<PaymentId, List<RefundView>> refunds = new HashMap<>();

        Index(LedgerBooks books) {
            for (RefundView r : books.refunds()) {
                refunds.computeIfAbsent(r.paymentId(), k -> new ArrayList<>()).add(r);
            }
            for (PaymentView p : books.payments()) {
                if (p.pgTransactionKey() != null) {
                    byTransactionKey.put(p.pgTransactionKey(), p);
                }
                if (p.paymentKey() != null) {
                    byPaymentKey.put(p.paymentKey(), p);
                }
                byOrder.computeIfAbsent(p.orderId(), k -> new ArrayList<>()).add(p);
            }
            // Latest attempt first: an order's newest payment is the likeliest to be the one the PG approved.
            byOrder.values().forEach(list -> list.sort(Comparator.comparing((PaymentView p) -> p.bookkeeping().firstSeenAt()).reversed()));
            books.orders().forEach(o -> orders.put(o.orderId(), o));
            for (Incident i : books.incidents()) {
                if (i.paymentId() != null) {
                    incidentsByPayment.putIfAbsent(i.paymentId(), i);
                }
                if (i.pgTransactionKey() != null) {
                    incidentsByTransaction.putIfAbsent(i.pgTransactionKey(), i);
                }
            }
        }

        /** By transaction key, else by the PG's payment key, else the order's newest payment not explained otherwise. */
        PaymentView paymentFor(PgTransaction approval, Optional<OrderId> orderId, Set<PaymentId> used) {
            PaymentView byKey = byTransactionKey.get(approval.transactionKey());
            if (byKey != null) {
                return byKey;
            }
            if (approval.paymentKey() != null) {
                PaymentView byPgKey = byPaymentKey.get(approval.paymentKey());
                if (byPgKey != null && !used.contains(byPgKey.paymentId())) {
                    return byPgKey;
                }
            }
            return orderId.flatMap(id -> byOrder.getOrDefault(id, List.of()).stream()
                            .filter(p -> !used.contains(p.paymentId()))
                            .filter(p -> p.pgTransactionKey() == null)
                            .filter(p -> p.paymentKey() == null || p.paymentKey().equals(approval.paymentKey()))
                            .findFirst())
                    .orElse(null);
        }

        /** What the payment's succeeded refunds gave back. */
        long refunded(PaymentId payment) {
            return refunds.getOrDefault(payment, List.of()).stream()
                    .filter(r -> r.status() == RefundView.Status.SUCCEEDED).mapToLong(r -> r.amount().amount()).sum();
        }

        /** A refund of the payment whose PG answer is not known yet: payment-service's settle is on it. */
        boolean refundsInFlight(PaymentId payment) {
            return refunds.getOrDefault(payment, List.of()).stream().anyMatch(r -> r.status().inFlight());
        }

        /**
         * Another payment of the order explains an approval already: matched to one in this slice, or recorded as
         * approved by the PG under another transaction (an approval of an older or later slice).
         */
        boolean accountedFor(OrderId orderId, PgTransaction approval, Set<PaymentId> used) {
            return byOrder.getOrDefault(orderId, List.of()).stream().anyMatch(p -> used.contains(p.paymentId())
                    || p.status().pgApproved() && p.pgTransactionKey() != null
                    && !p.pgTransactionKey().equals(approval.transactionKey()));
        }

        Incident incidentFor(PaymentView payment, String transactionKey) {
            Incident byPayment = payment == null ? null : incidentsByPayment.get(payment.paymentId());
            return byPayment != null ? byPayment : incidentsByTransaction.get(transactionKey);
        }
    }
}
