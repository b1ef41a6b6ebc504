package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.observe.RelayWatch;
import dev.payments.localstack.Component;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * payment-service's replication slot is dropped under load (its stream ended first, as a failover to a
 * server without the slot leaves it). The relay must raise the alarm (the alert rule {@code OutboxSlotLost}: the slot
 * unhealthy, or a loss counted), keep publishing through the polling relay from the outbox table, and hand back to
 * Debezium on a new slot - and no event may be lost or applied twice.
 */
@Command(name = "slot-lost", description = "relay: payment-service's replication slot dropped under load.")
final class SlotLost extends RelayDrill {

    @Option(names = "--after", description = "Seconds of load after the drop (the relay hands back after 60 s).")
    int afterSeconds = 90;

    private Double alertAfter;
    private Double handedBackAfter;
    private double publishedByPolling;
    private Double oldestUnpublished;

    @Override
    int secondsAfterFault() {
        return afterSeconds;
    }

    @Override
    public String description() {
        return "payment-service's slot dropped after " + beforeSeconds + " s of " + rate + " approvals/s, load for "
                + afterSeconds + " s more";
    }

    @Override
    public void run(Drill drill) throws Exception {
        try (RelayWatch relay = new RelayWatch(drill.http(), drill.target().endpoints().paymentManagement(), drill.clock()).start()) {
            drill.phase("before");
            Thread load = drill.arrivals(rate);
            drill.sleep(Duration.ofSeconds(beforeSeconds));
            RelayWatch.Sample before = relay.last();
            double lostBefore = before == null || before.slotLost() == null ? 0 : before.slotLost();
            double pollingBefore = before == null || before.publishedPolling() == null ? 0 : before.publishedPolling();

            drill.phase("slot dropped");
            double droppedAt = drill.clock().seconds();
            drill.faultInjected();
            int attempts = dropSlot(drill);
            drill.note("the slot was dropped after ending its stream " + attempts + " time(s) (the relay reconnects)");
            // Nobody repairs anything: from here on the relay is on its own.
            drill.recovered();
            drill.phase("fallback");
            drill.sleep(Duration.ofSeconds(afterSeconds));
            drill.stopArrivals(load);

            alertAfter = relay.secondsUntil(droppedAt, s -> (s.slotHealthy() != null && s.slotHealthy() == 0)
                    || (s.slotLost() != null && s.slotLost() > lostBefore));
            handedBackAfter = alertAfter == null ? null : relay.secondsUntil(droppedAt + alertAfter,
                    s -> s.polling() != null && s.polling() == 0 && s.slotHealthy() != null && s.slotHealthy() == 1);
            RelayWatch.Sample last = relay.last();
            publishedByPolling = last == null || last.publishedPolling() == null ? 0 : last.publishedPolling() - pollingBefore;
            oldestUnpublished = relay.maxOldestUnpublished(droppedAt);
            drill.extra("alertConditionAfterSeconds", alertAfter);
            drill.extra("handedBackToDebeziumAfterSeconds", handedBackAfter);
            drill.extra("publishedByPollingRelay", publishedByPolling);
            drill.extra("oldestUnpublishedMaxSeconds", oldestUnpublished);
            drill.note("OutboxSlotLost has no `for`: in a live Prometheus it fires at the first evaluation after the "
                    + "scrape that sees the condition, i.e. up to one scrape (15 s) and one evaluation (15 s) later than "
                    + "this drill's 0.5 s samples");
            auditOutbox(drill);
        }
    }

    /** Ends the slot's stream and drops it; the relay reconnects in between, so this repeats until the drop wins. */
    private static int dropSlot(Drill drill) throws SQLException {
        String slot = "outbox_" + SERVICE.replace('-', '_');
        try (Connection connection = drill.target().connect(Component.PAYMENT_SERVICE.database().orElseThrow())) {
            for (int attempt = 1; attempt <= 200; attempt++) {
                try (PreparedStatement end = connection.prepareStatement(
                        "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = ? AND active_pid IS NOT NULL");
                     PreparedStatement drop = connection.prepareStatement("SELECT pg_drop_replication_slot(?)")) {
                    end.setString(1, slot);
                    end.execute();
                    drop.setString(1, slot);
                    drop.execute();
                    return attempt;
                } catch (SQLException stillActive) {
                    drill.sleep(Duration.ofMillis(20));
                }
            }
        }
        throw new IllegalStateException("could not drop " + slot + ": it stayed active");
    }

    @Override
    public List<Target> targets(Measurements r) {
        List<Target> targets = new ArrayList<>();
        targets.add(new Target("alert condition (OutboxSlotLost) true after the drop", "<= 60 s", seconds(alertAfter),
                alertAfter == null ? Boolean.FALSE : alertAfter <= 60));
        targets.add(new Target("publishing continues through the polling relay", "> 0 events",
                String.format("%.0f events", publishedByPolling), publishedByPolling > 0));
        targets.add(new Target("oldest unpublished row while the slot was gone", "<= 30 s", seconds(oldestUnpublished),
                oldestUnpublished == null ? null : oldestUnpublished <= 30));
        targets.add(new Target("Debezium takes over again on a new slot", "<= 120 s after the alarm",
                seconds(handedBackAfter), handedBackAfter == null ? Boolean.FALSE : handedBackAfter <= 120));
        targets.addAll(outboxTargets(r));
        return targets;
    }
}
