package dev.payments.reconciliation.adapter.out.alert;

import dev.payments.reconciliation.application.ledger.LedgerAlerts;
import dev.payments.reconciliation.domain.ledger.LedgerMismatch;
import dev.payments.reconciliation.domain.ledger.LedgerMoney;
import dev.payments.reconciliation.domain.ledger.LedgerReport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

/**
 * {@code ledger_mismatches}: the mismatches of the last stored audit (the Prometheus rule alerts when it stays above
 * zero); {@code ledger_identity_holds} 1/0; {@code ledger_identity_terms{term}} each term of the identity;
 * {@code ledger_audits_total{outcome}}; an ERROR line per audit that finds mismatches, naming the first few.
 */
public class LedgerMetrics implements LedgerAlerts {

    private static final Logger log = LoggerFactory.getLogger(LedgerMetrics.class);
    private static final int NAMED = 5;
    private static final Map<String, ToLongFunction<LedgerReport>> TERMS = Map.of("pg_approvals",
            LedgerReport::pgApprovals, "paid_orders", LedgerReport::paidOrders, "renewals", LedgerReport::renewals,
            "cancellations", LedgerReport::cancellations, "incidents", LedgerReport::incidents, "in_flight",
            LedgerReport::inFlight, "unmatched", LedgerReport::unmatchedApprovals);
    private static final Map<String, ToLongFunction<LedgerMoney>> MONEY_TERMS = Map.of("pg_approved",
            LedgerMoney::pgApproved, "pg_refunded", LedgerMoney::pgRefunded, "paid", LedgerMoney::ourPaid,
            "refunded", LedgerMoney::ourRefunded, "incidents", LedgerMoney::incidents, "in_flight",
            LedgerMoney::inFlight, "unmatched", LedgerMoney::unmatched);

    private final AtomicLong mismatches = new AtomicLong();
    private final AtomicLong holds = new AtomicLong(1);
    private final Map<String, AtomicLong> terms;
    private final AtomicLong moneyHolds = new AtomicLong(1);
    private final Map<String, AtomicLong> moneyTerms;
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
        terms = gauges(meters, "ledger.identity.terms", "The terms of the last ledger audit: PG approvals = PAID + "
                + "renewals + cancellations + incidents + in flight + unmatched", TERMS.keySet());
        Gauge.builder("ledger.money.identity.holds", moneyHolds, AtomicLong::get)
                .description("1 when PG approved - PG refunded = our paid - our refunded + incidents + in flight, "
                        + "with nothing unmatched, else 0")
                .register(meters);
        moneyTerms = gauges(meters, "ledger.money.terms",
                "The identity in money of the last ledger audit, in the currency's minor unit", MONEY_TERMS.keySet());
        held = Counter.builder("ledger.audits").tag("outcome", "holds").register(meters);
        broken = Counter.builder("ledger.audits").tag("outcome", "mismatch").register(meters);
        failed = Counter.builder("ledger.audits").tag("outcome", "failed").register(meters);
    }

    @Override
    public void audited(LedgerReport report) {
        mismatches.set(report.mismatches().size());
        TERMS.forEach((term, value) -> terms.get(term).set(value.applyAsLong(report)));
        holds.set(report.holds() ? 1 : 0);
        if (report.money() != null) {
            MONEY_TERMS.forEach((term, value) -> moneyTerms.get(term).set(value.applyAsLong(report.money())));
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

    private static Map<String, AtomicLong> gauges(MeterRegistry meters, String name, String description,
                                                  Set<String> terms) {
        Map<String, AtomicLong> values = new HashMap<>();
        terms.forEach(term -> Gauge.builder(name, values.computeIfAbsent(term, t -> new AtomicLong()), AtomicLong::get)
                .description(description).tag("term", term).register(meters));
        return Map.copyOf(values);
    }

    private static String describe(LedgerMismatch m) {
        return m.reason() + " " + m.transactionKey() + " order " + m.orderId() + " " + m.amount();
    }
}
