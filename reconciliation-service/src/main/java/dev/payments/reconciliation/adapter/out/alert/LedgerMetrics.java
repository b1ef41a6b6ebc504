package dev.payments.reconciliation.adapter.out.alert;

import dev.payments.reconciliation.application.ledger.LedgerAlerts;
import dev.payments.reconciliation.domain.ledger.LedgerMismatch;
import dev.payments.reconciliation.domain.ledger.LedgerReport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * {@code ledger_mismatches}: the mismatches of the last stored audit (the Prometheus rule alerts when it stays above
 * zero); {@code ledger_identity_holds} 1/0; {@code ledger_identity_terms{term}} each term of the identity;
 * {@code ledger_audits_total{outcome}}; an ERROR line per audit that finds mismatches, naming the first few.
 */
public class LedgerMetrics implements LedgerAlerts {

    private static final Logger log = LoggerFactory.getLogger(LedgerMetrics.class);
    private static final int NAMED = 5;

    private final AtomicLong mismatches = new AtomicLong();
    private final AtomicLong holds = new AtomicLong(1);
    private final Map<String, AtomicLong> terms = new LinkedHashMap<>();
    private final AtomicLong moneyHolds = new AtomicLong(1);
    private final Map<String, AtomicLong> moneyTerms = new LinkedHashMap<>();
    private final Counter held;
    private final Counter broken;
    private final Counter failed;

    public LedgerMetrics(MeterRegistry meters) {
        Gauge.builder("ledger.mismatches", mismatches, AtomicLong::get)
                .description("PG transactions and approvals of ours the last ledger audit could not account for")
                .register(meters);
        Gauge.builder("ledger.identity.holds", holds, AtomicLong::get)
                .description("1 when PG approvals = PAID + renewals + cancellations + incidents (+ in flight), else 0")
                .register(meters);
        for (String term : List.of("pg_approvals", "paid_orders", "renewals", "cancellations", "incidents",
                "in_flight", "unmatched")) {
            AtomicLong value = new AtomicLong();
            terms.put(term, value);
            Gauge.builder("ledger.identity.terms", value, AtomicLong::get)
                    .description("The terms of the last ledger audit: PG approvals = PAID + renewals + cancellations"
                            + " + incidents + in flight + unmatched")
                    .tag("term", term).register(meters);
        }
        Gauge.builder("ledger.money.identity.holds", moneyHolds, AtomicLong::get)
                .description("1 when PG approved - PG refunded = our paid - our refunded + incidents + in flight, "
                        + "with nothing unmatched, else 0")
                .register(meters);
        for (String term : List.of("pg_approved", "pg_refunded", "paid", "refunded", "incidents", "in_flight",
                "unmatched")) {
            AtomicLong value = new AtomicLong();
            moneyTerms.put(term, value);
            Gauge.builder("ledger.money.terms", value, AtomicLong::get)
                    .description("The identity in money of the last ledger audit, in the currency's minor unit")
                    .tag("term", term).register(meters);
        }
        held = Counter.builder("ledger.audits").tag("outcome", "holds").register(meters);
        broken = Counter.builder("ledger.audits").tag("outcome", "mismatch").register(meters);
        failed = Counter.builder("ledger.audits").tag("outcome", "failed").register(meters);
    }

    @Override
    public void audited(LedgerReport report) {
        mismatches.set(report.mismatches().size());
        terms.get("pg_approvals").set(report.pgApprovals());
        terms.get("paid_orders").set(report.paidOrders());
        terms.get("renewals").set(report.renewals());
        terms.get("cancellations").set(report.cancellations());
        terms.get("incidents").set(report.incidents());
        terms.get("in_flight").set(report.inFlight());
        terms.get("unmatched").set(report.unmatchedApprovals());
        holds.set(report.holds() ? 1 : 0);
        if (report.money() != null) {
            moneyTerms.get("pg_approved").set(report.money().pgApproved());
            moneyTerms.get("pg_refunded").set(report.money().pgRefunded());
            moneyTerms.get("paid").set(report.money().ourPaid());
            moneyTerms.get("refunded").set(report.money().ourRefunded());
            moneyTerms.get("incidents").set(report.money().incidents());
            moneyTerms.get("in_flight").set(report.money().inFlight());
            moneyTerms.get("unmatched").set(report.money().unmatched());
            moneyHolds.set(report.money().holds() ? 1 : 0);
            if (!report.money().holds()) {
                log.error("LEDGER MONEY MISMATCH over {} .. {}: {}", report.from(), report.to(),
                        report.money().identity());
            }
        }
        if (report.holds()) {
            held.increment();
            log.info("Ledger identity holds over {} .. {}: {} PG approvals = {} PAID + {} renewals + {} cancellations + "
                            + "{} incidents + {} in flight", report.from(), report.to(), report.pgApprovals(),
                    report.paidOrders(), report.renewals(), report.cancellations(), report.incidents(), report.inFlight());
            return;
        }
        broken.increment();
        log.error("LEDGER MISMATCH: {} of {} PG approvals unaccounted for, {} mismatches in all ({} PAID, {} "
                        + "renewals, {} cancellations, {} incidents, {} in flight); first: {}", report.unmatchedApprovals(),
                report.pgApprovals(), report.mismatches().size(), report.paidOrders(), report.renewals(),
                report.cancellations(),
                report.incidents(), report.inFlight(), report.mismatches().stream().limit(NAMED)
                        .map(LedgerMetrics::describe).collect(Collectors.joining("; ")));
    }

    @Override
    public void failed(String reason) {
        failed.increment();
        log.warn("Ledger audit could not read the PG's books: {}; the previous result stands", reason);
    }

    private static String describe(LedgerMismatch m) {
        return m.reason() + " " + m.transactionKey() + " order " + m.orderId() + " " + m.amount();
    }
}
