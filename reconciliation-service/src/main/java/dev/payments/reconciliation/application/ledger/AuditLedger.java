package dev.payments.reconciliation.application.ledger;

import dev.payments.reconciliation.application.incidents.Incidents;
import dev.payments.reconciliation.application.incidents.OpenIncident;
import dev.payments.reconciliation.application.settling.PaymentSync;
import dev.payments.reconciliation.application.shared.PgUnavailableException;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentReason;
import dev.payments.reconciliation.domain.ledger.AuditWindow;
import dev.payments.reconciliation.domain.ledger.LedgerAudit;
import dev.payments.reconciliation.domain.ledger.LedgerBooks;
import dev.payments.reconciliation.domain.ledger.LedgerMismatch;
import dev.payments.reconciliation.domain.ledger.LedgerReport;
import dev.payments.reconciliation.domain.ledger.MismatchReason;
import dev.payments.reconciliation.domain.ledger.PgTransaction;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.settling.FailureStage;
import dev.payments.reconciliation.domain.settling.SyncOutcome;
import dev.payments.reconciliation.domain.shared.Money;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The ledger audit: reads the PG's books over a window and matches every approval against ours (the rules are in
 * {@link LedgerAudit}). The regular run covers the last {@code lookback}, is stored, moves the mismatch gauge, and turns
 * a mismatch older than the long deadline into an incident, so nothing ages out of the window untraced. A run over an
 * explicit window is for investigation only: returned, not stored.
 *
 * <p>The regular run also repairs the two mismatches that need no decision about money. The PG cancelled a payment we
 * still hold as approved (a refund in the PG's console, a refund whose answer was lost): payment-service's sync
 * records what the PG did (APPROVED -> CANCELED, the order follows). The PG approved a payment we recorded as FAILED or
 * DECLINED, after the customer was told "not charged" (a late booking): the sync owes the PG a cancel and
 * sends it (FAILED -> CANCEL_OWED -> CANCELED), the settler retrying it if the PG does not confirm at once. The next
 * run finds a cancellation, or the cancel in flight. Every other mismatch waits for its incident.
 */
public final class AuditLedger {

    private static final Logger log = LoggerFactory.getLogger(AuditLedger.class);
    /** Bounds one run's sync calls (each may take up to the sync timeout); the rest wait for the next run. */
    static final int MAX_REPAIRS_PER_RUN = 20;
    /** The newest slice's length; later ones follow the PG's rate (see {@link #nextSlice}). */
    static final Duration FIRST_SLICE = Duration.ofMinutes(5);
    static final Duration SHORTEST_SLICE = Duration.ofMinutes(1);

    private final PgBooks pg;
    private final LedgerBooksReader books;
    private final Incidents incidents;
    private final LedgerAudits audits;
    private final LedgerAlerts alerts;
    private final OpenIncident openIncident;
    private final PaymentSync paymentSync;
    private final Clock clock;
    private final Duration inFlight;
    private final Duration lookback;
    private final int sliceTransactions;
    private final Duration escalateAfter;

    /**
     * @param inFlight      approvals younger than this may still be settling: the settle deadline
     * @param lookback      the window of the regular run
     * @param sliceTransactions about how many PG transactions one slice of the window holds: a run holds one slice's
     *                      listing and books in memory (about 1.5 KB per PG transaction), not the window's
     * @param escalateAfter a mismatch older than in-flight plus this becomes a LEDGER_MISMATCH incident
     */
    public AuditLedger(PgBooks pg, LedgerBooksReader books, Incidents incidents, LedgerAudits audits,
                       LedgerAlerts alerts, OpenIncident openIncident, PaymentSync paymentSync, Clock clock,
                       Duration inFlight, Duration lookback, int sliceTransactions, Duration escalateAfter) {
        this.pg = pg;
        this.books = books;
        this.incidents = incidents;
        this.audits = audits;
        this.alerts = alerts;
        this.openIncident = openIncident;
        this.paymentSync = paymentSync;
        this.clock = clock;
        this.inFlight = inFlight;
        this.lookback = lookback;
        this.sliceTransactions = sliceTransactions;
        this.escalateAfter = escalateAfter;
    }

    /**
     * The regular run: the last {@code lookback}, stored.
     *
     * @throws PgUnavailableException if the PG's books could not be read (the previous result stays)
     */
    public LedgerReport run() {
        // PostgreSQL keeps microseconds: the stored audit reads back exactly as it was returned.
        Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
        LedgerReport report;
        try {
            report = audit(now.minus(lookback), now, now);
        } catch (PgUnavailableException e) {
            alerts.failed(e.getMessage());
            throw e;
        }
        audits.save(report);
        alerts.audited(report);
        Set<PaymentId> repaired = repairCanceledAtPg(report);
        repaired.addAll(cancelLateApprovals(report));
        repaired.addAll(settleRefunds(report));
        escalate(report, now, repaired);
        return report;
    }

    /** An investigation over an explicit window; not stored, no gauge moved, nothing escalated. */
    public LedgerReport run(Instant from, Instant to) {
        if (!from.isBefore(to)) {
            throw new IllegalArgumentException("'from' must be before 'to'");
        }
        return audit(from, to, clock.instant());
    }

    /** The last stored run, if any. */
    public Optional<LedgerReport> latest() {
        return audits.latest();
    }

    /**
     * The finance export over a window: every PG transaction with what it was matched to, and the identity's totals.
     * The PG's books and ours are read now (a PG that cannot be read fails here, before anything is written);
     * {@link Export#write} then matches them by the audit's own rules, handing each line on as it is matched, so the
     * rows are never gathered into one document and add up to the report it returns. Not stored, nothing escalated.
     *
     * @throws PgUnavailableException if the PG's books could not be read
     */
    public Export export(Instant from, Instant to) {
        if (!from.isBefore(to)) {
            throw new IllegalArgumentException("'from' must be before 'to'");
        }
        Instant now = clock.instant();
        List<PgTransaction> transactions = pg.transactions(from, to);
        LedgerBooks ours = booksOf(transactions, from, to, incidents.all());
        return each -> LedgerAudit.audit(transactions, ours, from, to, now, inFlight, each);
    }

    /** A window's books, read; matched when written. */
    @FunctionalInterface
    public interface Export {

        /** Hands every transaction's line to {@code each}, then returns the identity's terms. */
        LedgerReport write(Consumer<LedgerAudit.Line> each);
    }

    /**
     * The window slice by slice, newest first (the order {@link AuditWindow} needs), each slice sized from the
     * one before so that it holds about {@code sliceTransactions}: a quiet night is read in a few long slices, a
     * busy hour in many short ones.
     */
    private LedgerReport audit(Instant from, Instant to, Instant now) {
        AuditWindow window = new AuditWindow(from, to, now, inFlight, line -> {
        });
        List<Incident> known = incidents.all();
        Duration length = FIRST_SLICE;
        for (Instant sliceTo = to; sliceTo.isAfter(from); ) {
            Instant sliceFrom = sliceTo.minus(length).isAfter(from) ? sliceTo.minus(length) : from;
            List<PgTransaction> transactions = pg.transactions(sliceFrom, sliceTo);
            window.add(sliceFrom, sliceTo, transactions, booksOf(transactions, sliceFrom, sliceTo, known));
            length = nextSlice(length, transactions.size(), sliceTransactions);
            sliceTo = sliceFrom;
        }
        return window.report();
    }

    /**
     * The next slice's length: scaled to hold about {@code target} transactions at the rate the last one saw, at
     * least a minute, and at most twice the last, so that a burst behind a quiet stretch lands in a slice only a
     * little longer than the quiet one's.
     */
    static Duration nextSlice(Duration last, int transactions, int target) {
        long scaled = last.toMillis() * target / Math.max(1, transactions);
        return Duration.ofMillis(Math.max(SHORTEST_SLICE.toMillis(), Math.min(2 * last.toMillis(), scaled)));
    }

    private LedgerBooks booksOf(List<PgTransaction> transactions, Instant from, Instant to, List<Incident> known) {
        Set<OrderId> orderIds = new HashSet<>();
        for (PgTransaction t : transactions) {
            OrderId.tryParse(t.orderId()).ifPresent(orderIds::add);
        }
        LedgerBooksReader.Slice slice = books.read(orderIds, from, to);
        return new LedgerBooks(slice.payments(), slice.orders(), known, slice.refunds());
    }

    /** @return the payments payment-service reported CANCELED after asking the PG */
    private Set<PaymentId> repairCanceledAtPg(LedgerReport report) {
        Set<PaymentId> repaired = new HashSet<>();
        List<LedgerMismatch> canceledAtPg = report.mismatches().stream()
                .filter(m -> m.reason() == MismatchReason.CANCELED_AT_PG_NOT_HERE && m.paymentId() != null)
                .limit(MAX_REPAIRS_PER_RUN)
                .toList();
        for (LedgerMismatch mismatch : canceledAtPg) {
            SyncOutcome outcome = paymentSync.sync(mismatch.paymentId());
            // Only a cancel the sync itself wrote repairs the books: a payment already CANCELED whose order is still
            // PAID (order-service parked the event) is another fault, and stays a mismatch that escalates.
            if (outcome instanceof SyncOutcome.Answered answered && answered.paymentStatus() == PaymentStatus.CANCELED
                    && "CANCELED".equals(answered.action())) {
                log.warn("Ledger repair: the PG had cancelled payment {} of order {} ({} {}) and we still held it as "
                                + "approved; payment-service recorded the cancel ({})", mismatch.paymentId(),
                        mismatch.orderId(), mismatch.amount(), mismatch.currency(), answered.action());
                repaired.add(mismatch.paymentId());
            } else {
                log.warn("Ledger repair of payment {} (cancelled at the PG, not here) did not settle it: {}; it stays a "
                        + "mismatch", mismatch.paymentId(), outcome);
                if (outcome.isFailure()) {
                    // payment-service or the PG is down: the rest waits for the next run instead of holding this one.
                    break;
                }
            }
        }
        return repaired;
    }

    /**
     * A payment whose refunds and the PG's cancels of it disagree in money: a refund whose answer was lost, or one the
     * PG booked late after we had found it never booked. payment-service's sync settles its refunds from the PG's
     * cancels (docs/refunds.md); the next audit sees the result through the Refund events.
     *
     * @return the payments whose sync answered
     */
    private Set<PaymentId> settleRefunds(LedgerReport report) {
        Set<PaymentId> synced = new HashSet<>();
        List<LedgerMismatch> refundMismatches = report.mismatches().stream()
                .filter(m -> m.reason() == MismatchReason.REFUND_MISMATCH && m.paymentId() != null)
                .limit(MAX_REPAIRS_PER_RUN)
                .toList();
        for (LedgerMismatch mismatch : refundMismatches) {
            SyncOutcome outcome = paymentSync.sync(mismatch.paymentId());
            if (outcome instanceof SyncOutcome.Answered answered) {
                log.warn("Ledger repair: payment {}'s refunds disagreed with the PG's cancels; payment-service settled "
                        + "them from the PG's books ({})", mismatch.paymentId(), answered.action());
                synced.add(mismatch.paymentId());
            } else {
                log.warn("Ledger repair of payment {}'s refunds did not answer: {}; it stays a mismatch",
                        mismatch.paymentId(), outcome);
                if (outcome.isFailure()) {
                    break;
                }
            }
        }
        return synced;
    }

    /**
     * @return the payments payment-service now owes a cancel for (or has cancelled): the PG approved them after we
     *         had recorded FAILED or DECLINED
     */
    private Set<PaymentId> cancelLateApprovals(LedgerReport report) {
        Set<PaymentId> owed = new HashSet<>();
        List<LedgerMismatch> lateApprovals = report.mismatches().stream()
                .filter(m -> m.reason() == MismatchReason.PAYMENT_NOT_APPROVED && m.paymentId() != null)
                .limit(MAX_REPAIRS_PER_RUN)
                .toList();
        for (LedgerMismatch mismatch : lateApprovals) {
            SyncOutcome outcome = paymentSync.sync(mismatch.paymentId());
            if (outcome instanceof SyncOutcome.Answered answered && (answered.paymentStatus() == PaymentStatus.CANCELED
                    || answered.paymentStatus() == PaymentStatus.CANCEL_OWED)
                    || outcome instanceof SyncOutcome.PgFailed failed && failed.stage() == FailureStage.CANCEL) {
                // A failed cancel is owed all the same: the settler picks it up from PaymentCancelOwed.
                log.warn("Ledger repair: the PG approved payment {} of order {} ({} {}) after we recorded it as not "
                                + "charged; a cancel is owed at the PG ({})", mismatch.paymentId(), mismatch.orderId(),
                        mismatch.amount(), mismatch.currency(), outcome);
                owed.add(mismatch.paymentId());
            } else {
                log.warn("Ledger repair of payment {} (approved at the PG, not here) did not owe a cancel: {}; it stays "
                        + "a mismatch", mismatch.paymentId(), outcome);
                if (outcome.isFailure()) {
                    break;
                }
            }
        }
        return owed;
    }

    private void escalate(LedgerReport report, Instant now, Set<PaymentId> repaired) {
        Instant before = now.minus(inFlight).minus(escalateAfter);
        for (LedgerMismatch mismatch : report.mismatches()) {
            if (!mismatch.at().isBefore(before) || repaired.contains(mismatch.paymentId())) {
                continue;
            }
            Money amount = new Money(mismatch.amount(), mismatch.currency() == null ? "KRW" : mismatch.currency());
            OrderId orderId = OrderId.tryParse(mismatch.orderId()).orElse(null);
            String detail = mismatch.reason() + ": " + mismatch.detail();
            Incident incident = mismatch.paymentId() != null
                    ? Incident.open(IncidentReason.LEDGER_MISMATCH, mismatch.paymentId(), orderId, amount,
                    mismatch.transactionKey(), detail, 0, now)
                    : Incident.openForTransaction(IncidentReason.LEDGER_MISMATCH, mismatch.transactionKey(), orderId,
                    amount, detail, now);
            openIncident.open(incident);
        }
    }
}
