package dev.payments.reconciliation.application;

import dev.payments.reconciliation.domain.Incident;
import dev.payments.reconciliation.domain.IncidentReason;
import dev.payments.reconciliation.domain.LedgerAudit;
import dev.payments.reconciliation.domain.LedgerBooks;
import dev.payments.reconciliation.domain.LedgerMismatch;
import dev.payments.reconciliation.domain.LedgerReport;
import dev.payments.reconciliation.domain.Money;
import dev.payments.reconciliation.domain.OrderId;
import dev.payments.reconciliation.domain.PgTransaction;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The ledger audit: reads the PG's books over a window and matches every approval against ours (the rules are in
 * {@link LedgerAudit}). The regular run covers the last {@code lookback}, is stored, moves the mismatch gauge, and turns
 * a mismatch older than the long deadline into an incident, so nothing ages out of the window untraced. A run over an
 * explicit window is for investigation only: returned, not stored.
 */
public final class AuditLedger {

    private static final Duration KEEP_AUDITS = Duration.ofDays(7);

    private final PgBooks pg;
    private final LedgerBooksReader books;
    private final Incidents incidents;
    private final LedgerAudits audits;
    private final LedgerAlerts alerts;
    private final OpenIncident openIncident;
    private final Clock clock;
    private final Duration inFlight;
    private final Duration lookback;
    private final Duration escalateAfter;

    /**
     * @param inFlight      approvals younger than this may still be settling: the settle deadline
     * @param lookback      the window of the regular run
     * @param escalateAfter a mismatch older than in-flight plus this becomes a LEDGER_MISMATCH incident
     */
    public AuditLedger(PgBooks pg, LedgerBooksReader books, Incidents incidents, LedgerAudits audits,
                       LedgerAlerts alerts, OpenIncident openIncident, Clock clock, Duration inFlight,
                       Duration lookback, Duration escalateAfter) {
        this.pg = pg;
        this.books = books;
        this.incidents = incidents;
        this.audits = audits;
        this.alerts = alerts;
        this.openIncident = openIncident;
        this.clock = clock;
        this.inFlight = inFlight;
        this.lookback = lookback;
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
        audits.pruneBefore(now.minus(KEEP_AUDITS));
        alerts.audited(report);
        escalate(report, now);
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

    private LedgerReport audit(Instant from, Instant to, Instant now) {
        List<PgTransaction> transactions = pg.transactions(from, to);
        Set<OrderId> orderIds = new HashSet<>();
        for (PgTransaction t : transactions) {
            OrderId.tryParse(t.orderId()).ifPresent(orderIds::add);
        }
        LedgerBooksReader.Slice slice = books.read(orderIds, from, to);
        return LedgerAudit.audit(transactions, new LedgerBooks(slice.payments(), slice.orders(), incidents.all()),
                from, to, now, inFlight);
    }

    private void escalate(LedgerReport report, Instant now) {
        Instant before = now.minus(inFlight).minus(escalateAfter);
        for (LedgerMismatch mismatch : report.mismatches()) {
            if (!mismatch.at().isBefore(before)) {
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
