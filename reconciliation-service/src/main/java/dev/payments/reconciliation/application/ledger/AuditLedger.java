package dev.payments.reconciliation.application.ledger;

import dev.payments.contracts.Money;
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
import dev.payments.reconciliation.domain.ledger.PgTransaction;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;

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
 * <p>The regular run also repairs the mismatches that need no decision about money ({@link LedgerRepairs}).
 */
public final class AuditLedger {

    /** The newest slice's length; later ones follow the PG's rate (see {@link #nextSlice}). */
    static final Duration FIRST_SLICE = Duration.ofMinutes(5);
    static final Duration SHORTEST_SLICE = Duration.ofMinutes(1);

    private final PgBooks pg;
    private final LedgerBooksReader books;
    private final Incidents incidents;
    private final LedgerAudits audits;
    private final LedgerAlerts alerts;
    private final OpenIncident openIncident;
    private final LedgerRepairs repairs;
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
        this.repairs = new LedgerRepairs(paymentSync);
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
        Set<PaymentId> repaired = repairs.repair(report);
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
