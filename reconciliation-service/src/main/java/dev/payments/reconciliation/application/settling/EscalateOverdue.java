package dev.payments.reconciliation.application.settling;

import dev.payments.reconciliation.application.incidents.OpenIncident;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentReason;
import dev.payments.reconciliation.domain.settling.Settlement;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Opens an incident for every payment still without a final outcome, and every order still in PAYMENT_PENDING, past
 * the long deadline: by then the PG has decided everything it will decide by itself (Toss expires a READY session
 * after 10 minutes), so what is left needs a human.
 */
public final class EscalateOverdue {

    private static final int LIMIT = 100;

    private final Settlements settlements;
    private final OpenIncident openIncident;
    private final Clock clock;
    private final Duration unresolvedAfter;

    public EscalateOverdue(Settlements settlements, OpenIncident openIncident, Clock clock, Duration unresolvedAfter) {
        this.settlements = settlements;
        this.openIncident = openIncident;
        this.clock = clock;
        this.unresolvedAfter = unresolvedAfter;
    }

    /** @return incidents opened */
    public int run() {
        Instant now = clock.instant();
        Instant before = now.minus(unresolvedAfter);
        int opened = 0;
        for (Overdue payment : settlements.overduePayments(before, LIMIT)) {
            String detail = "Payment " + payment.paymentId() + " of order " + payment.orderId() + " has been "
                    + payment.paymentStatus() + " since " + payment.since() + " (longer than " + unresolvedAfter
                    + "); " + attempts(payment);
            if (openIncident.open(Incident.open(IncidentReason.UNRESOLVED, payment.paymentId(), payment.orderId(),
                    payment.amount(), null, detail, payment.settlement().map(Settlement::attempts).orElse(0), now))
                    .isPresent()) {
                opened++;
            }
        }
        for (Overdue order : settlements.overdueOrders(before, LIMIT)) {
            String detail = "Order " + order.orderId() + " has been PAYMENT_PENDING since " + order.since()
                    + " (longer than " + unresolvedAfter + "); its payment " + order.paymentId() + " is "
                    + (order.paymentStatus() == null ? "unknown to reconciliation" : order.paymentStatus())
                    + ". If the payment is settled, order-service has not applied its outcome: look for it on "
                    + "payment.events.order-service.dlt and replay it (docs/runbooks/replay.md); " + attempts(order);
            if (openIncident.open(Incident.open(IncidentReason.ORDER_STUCK, order.paymentId(), order.orderId(),
                    order.amount(), null, detail, order.settlement().map(Settlement::attempts).orElse(0), now))
                    .isPresent()) {
                opened++;
            }
        }
        return opened;
    }

    private static String attempts(Overdue overdue) {
        if (overdue.settlement().filter(Settlement::settled).isPresent()) {
            Settlement s = overdue.settlement().get();
            return "payment-service reported it " + s.settledStatus() + " at " + s.settledAt() + " (PG "
                    + s.lastPgState() + "), but no event saying so has reached reconciliation: check payment-service's "
                    + "outbox relay and the payment.events topic";
        }
        return overdue.settlement()
                .map(s -> s.attempts() + " settle attempts, last " + s.lastResult() + " at " + s.lastAttemptAt()
                        + (s.lastPgState() == null ? "" : " (PG " + s.lastPgState() + ")")
                        + (s.lastDetail() == null ? "" : ": " + s.lastDetail()))
                .orElse("no settle attempt yet");
    }
}
