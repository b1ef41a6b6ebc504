package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.analysis.Stats;
import dev.payments.drills.observe.OutboxAudit;
import dev.payments.localstack.Component;
import dev.payments.drills.observe.Notices;
import picocli.CommandLine.Option;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The outbox relay of payment-service loses what it stands on under an arrival-rate load - its replication
 * slot ({@link SlotLost}) or its lease holder ({@link LeaseHolderFrozen}) - and nothing may be lost: after the load,
 * every row of payment-service's outbox table must be on {@code payment.events} and no customer may see a
 * notification twice. A subclass breaks the relay and measures how it coped.
 */
abstract class RelayDrill extends BaseScenario {

    static final String SERVICE = "payment-service";
    static final String TOPIC = "payment.events";

    @Option(names = "--rate", description = "Approvals per second, throughout.")
    double rate = 10;
    @Option(names = "--before", description = "Seconds of load before the relay is broken.")
    int beforeSeconds = 20;

    OutboxAudit.Coverage coverage;
    int[] notices;

    /** Seconds the load runs after the relay was broken. */
    abstract int secondsAfterFault();

    @Override
    public int ordersNeeded() {
        return (int) Math.ceil(rate * (beforeSeconds + secondsAfterFault() + 60)) + 10;
    }

    /** The table against the topic, and the notifications, once the load has stopped. */
    void auditOutbox(Drill drill) throws SQLException {
        drill.phase("outbox audit");
        double loadStopped = drill.clock().seconds();
        coverage = OutboxAudit.outboxAgainstTopic(drill.target(), Component.PAYMENT_SERVICE.database().orElseThrow(),
                TOPIC, Duration.ofSeconds(90));
        // The audit that follows reads the consumers' effects: give them the events the relay published last.
        Double caughtUp = drill.awaitConsumersCaughtUp(Duration.ofSeconds(90));
        drill.extra("consumersCaughtUpAfterLoadSeconds", caughtUp == null ? null : caughtUp - loadStopped);
        drill.note(caughtUp == null ? "the consumers had not caught up 90 s after the load stopped"
                : String.format("the consumers caught up %.1f s after the load stopped", caughtUp - loadStopped));
        Notices read = Notices.of(drill.http(), drill.target(), drill.orders().used());
        notices = new int[] {read.orders() - read.unreadable(), read.duplicated()};
        drill.extra("outboxRows", coverage.rows());
        drill.extra("outboxRowsMissingFromKafka", coverage.missing());
        drill.extra("eventsSentMoreThanOnce", coverage.duplicates());
        drill.extra("ordersWithNotificationsChecked", notices[0]);
        drill.extra("notificationsDoubled", notices[1]);
        drill.note(coverage.rows() + " rows in payment-service's outbox, " + coverage.missing() + " not on " + TOPIC
                + "; " + coverage.duplicates() + " extra copies on the topic (the relays' at-least-once, absorbed by "
                + "the consumers' inboxes); " + notices[1] + " notifications doubled over " + notices[0] + " orders");
    }

    List<Target> outboxTargets(Measurements r) {
        List<Target> targets = new ArrayList<>();
        targets.add(new Target("every row of payment-service's outbox on " + TOPIC, "0 missing",
                coverage == null ? "-" : coverage.missing() + " of " + coverage.rows() + " missing",
                coverage == null ? null : coverage.missing() == 0));
        targets.add(new Target("each event applied once (no notification doubled)", "0",
                notices == null ? "-" : notices[1] + " over " + notices[0] + " orders",
                // Nothing checked (every list refused) proves nothing: the audit must have read notifications.
                notices == null ? null : notices[0] > 0 && notices[1] == 0));
        targets.add(new Target("every payment settled, orders agree", "<= 30 s after the fault", settledText(r),
                settledWithin(r, 30)));
        return targets;
    }

    static String seconds(Double value) {
        return value == null ? "never" : Stats.s(value);
    }
}
