package dev.payments.reconciliation.domain.ledger;

import dev.payments.reconciliation.domain.ledger.LedgerAudit.Line;
import dev.payments.reconciliation.domain.ledger.LedgerAudit.Match;
import dev.payments.reconciliation.domain.projection.PaymentView;
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
 * A window of the ledger audit read slice by slice, newest first, so that one slice's listing and books are held at a
 * time instead of the whole window's (about 1.5 KB per PG transaction, docs/benchmarks/export.md: a 24-hour window at
 * 5 approvals/s would hold 650 MB). What crosses slices is small and bounded: the PG's cancels (a cancel comes after
 * its approval, so by the time a slice is matched every later cancel of its approvals has been read), the approval
 * keys of the slice read before (our approval booked by the PG up to a slice later is not "missing"), our approvals
 * near a slice's start still to look for in the older slice, and the payments matched without their transaction key
 * (so that one payment explains one approval only).
 */
public final class AuditWindow {

    /**
     * Our approval time comes from the PG's answer and its booking time from its books; approvals this close to the
     * window's start may have been booked just before it, so they are not reported missing.
     */
    static final Duration CLOCK_SKEW = Duration.ofMinutes(1);

    private final Instant from;
    private final Instant to;
    private final Instant now;
    private final Instant youngAfter;
    private final Consumer<Line> each;
    private final Map<String, PgCancels> cancels = new HashMap<>();
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
    public AuditWindow(Instant from, Instant to, Instant now, Duration inFlight, Consumer<Line> each) {
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
                    cancels.merge(t.paymentKey(), PgCancels.of(t), PgCancels::plus);
                }
            } else {
                approvals.add(t);
                approvalKeys.add(t.transactionKey());
            }
        }
        approvals.sort(Comparator.comparing(PgTransaction::transactedAt));
        pgApprovals += approvals.size();
        BooksIndex index = new BooksIndex(books);
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

    private void match(PgTransaction approval, BooksIndex index, Set<PaymentId> used) {
        Optional<OrderId> orderId = OrderId.tryParse(approval.orderId());
        PaymentView payment = index.paymentFor(approval, orderId, used);
        if (payment != null) {
            used.add(payment.paymentId());
            if (!approval.transactionKey().equals(payment.pgTransactionKey())) {
                matchedWithoutTransactionKey.add(payment.paymentId());
            }
        }
        PgCancels returned = approval.paymentKey() == null ? null : cancels.get(approval.paymentKey());
        ApprovalMatch matched = ApprovalMatch.of(approval, orderId, payment, index, returned, used, youngAfter);
        counts.merge(matched.match(), 1L, Long::sum);
        money = matched.addTo(money);
        Line line = matched.line();
        if (returned != null) {
            approvalByPaymentKey.putIfAbsent(approval.paymentKey(), line);
        }
        each.accept(line);
        if (matched.match() == Match.MISMATCH) {
            mismatches.add(matched.mismatch());
        }
    }

    /**
     * Our approvals in the slice that the PG's books have no transaction for, in this slice or the later one; one
     * approved near the slice's start may have been booked in the older slice, so it waits for that one.
     */
    private void findMissing(LedgerBooks books, BooksIndex index, Instant sliceFrom, Instant sliceTo,
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
