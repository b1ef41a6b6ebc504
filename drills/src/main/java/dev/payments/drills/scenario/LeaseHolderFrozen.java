package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.load.ApprovalClient;
import dev.payments.drills.load.LoadGenerator;
import dev.payments.drills.observe.RelayWatch;
import dev.payments.localstack.Component;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Two replicas of payment-service (the stack's {@code --replicas}, behind its load balancer); the one holding
 * the relay lease is frozen (SIGSTOP: every socket open, nothing answered, as a paused VM or a silent network cut) while
 * the load goes straight to the other. The standby must take
 * over publishing within 30 s - PostgreSQL ends the frozen holder's silent lease session - and when the frozen one runs
 * again it must find its lease gone and publish nothing more: no event sent by two relays at once.
 */
@Command(name = "lease-holder-frozen", description = "relay: the relay's lease holder frozen (SIGSTOP) beside a standby replica.")
final class LeaseHolderFrozen extends RelayDrill {

    @Option(names = "--frozen", description = "Seconds the lease holder stays frozen.")
    int frozenSeconds = 45;
    @Option(names = "--after", description = "Seconds of load after it runs again.")
    int afterSeconds = 30;

    private Double takeoverAfter;
    private Double standbyPublishingAfter;
    private Double frozenPublishedAfterThaw;
    private Double frozenActiveAfterThaw;

    @Override
    int secondsAfterFault() {
        return frozenSeconds + afterSeconds;
    }

    @Override
    public Map<Component, Integer> replicas() {
        return Map.of(Component.PAYMENT_SERVICE, 2);
    }

    @Override
    public String description() {
        return "a second payment-service replica takes the load (" + rate + " approvals/s); after " + beforeSeconds
                + " s the first, holding the relay lease, is frozen for " + frozenSeconds + " s, then load for "
                + afterSeconds + " s more";
    }

    @Override
    public void run(Drill drill) throws Exception {
        List<String> replicas = drill.target().replicas(SERVICE);
        if (replicas.size() != 2) {
            throw new IllegalStateException("lease-holder-frozen needs two payment-service replicas (its own stack runs"
                    + " them; an external stack has " + replicas + ")");
        }
        drill.phase("finding the lease holder");
        String holderName = leaseHolder(drill, replicas);
        String standbyName = replicas.get(holderName.equals(replicas.get(0)) ? 1 : 0);
        String standbyUrl = drill.target().replicaUrl(standbyName);
        drill.note(holderName + " holds the relay lease; the load goes straight to " + standbyName + " at " + standbyUrl);
        LoadGenerator toReplica = new LoadGenerator(new ApprovalClient(drill.http(), drill.target().endpoints().order(),
                standbyUrl, drill.target().tokens()), drill.recorder());
        try (RelayWatch holder = new RelayWatch(drill.http(), drill.target().replicaManagementUrl(holderName),
                drill.clock()).start();
             RelayWatch standby = new RelayWatch(drill.http(), drill.target().replicaManagementUrl(standbyName),
                     drill.clock()).start()) {
            drill.sleep(Duration.ofSeconds(2));
            RelayWatch.Sample first = holder.last();
            if (first == null || first.active() == null || first.active() != 1) {
                drill.note(holderName + " did not hold the lease when the load began: " + first);
            }
            drill.phase("before");
            Thread load = drill.arrivals(toReplica, rate, "arrivals");
            drill.sleep(Duration.ofSeconds(beforeSeconds));
            RelayWatch.Sample standbyBefore = standby.last();
            double standbyPublishedBefore = standbyBefore == null ? 0 : standbyBefore.published();

            drill.phase("lease holder frozen");
            double frozenAt = drill.clock().seconds();
            drill.faultInjected();
            drill.control(holderName, "freeze");
            drill.sleep(Duration.ofSeconds(frozenSeconds));
            drill.control(holderName, "thaw");
            double thawedAt = drill.clock().seconds();
            drill.recoveredThenStop(load, Duration.ofSeconds(afterSeconds));
            drill.sleep(Duration.ofSeconds(3));

            takeoverAfter = standby.secondsUntil(frozenAt, s -> s.active() != null && s.active() == 1);
            standbyPublishingAfter = standby.secondsUntil(frozenAt, s -> s.published() > standbyPublishedBefore);
            Double firstAfterThaw = holder.secondsUntil(thawedAt, RelayWatch.Sample::up);
            RelayWatch.Sample thawed = firstAfterThaw == null ? null : holder.samples().stream()
                    .filter(s -> s.up() && s.t() >= thawedAt).findFirst().orElse(null);
            RelayWatch.Sample holderLast = holder.last();
            frozenPublishedAfterThaw = thawed == null ? null : holderLast.published() - thawed.published();
            frozenActiveAfterThaw = holderLast == null ? null : holderLast.active();
            drill.extra("standbyActiveAfterSeconds", takeoverAfter);
            drill.extra("standbyPublishingAfterSeconds", standbyPublishingAfter);
            drill.extra("frozenHolderPublishedAfterThaw", frozenPublishedAfterThaw);
            drill.extra("oldestUnpublishedMaxSeconds", standby.maxOldestUnpublished(frozenAt));
            auditOutbox(drill);
        }
    }

    /** The replica that reports {@code outbox_relay_active} = 1; one of them takes the lease within seconds of start. */
    private static String leaseHolder(Drill drill, List<String> replicas) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < until) {
            for (String replica : replicas) {
                try (RelayWatch watch = new RelayWatch(drill.http(), drill.target().replicaManagementUrl(replica),
                        drill.clock()).start()) {
                    Thread.sleep(300);
                    RelayWatch.Sample sample = watch.last();
                    if (sample != null && sample.active() != null && sample.active() == 1) {
                        return replica;
                    }
                }
            }
            Thread.sleep(1000);
        }
        throw new IllegalStateException("neither " + replicas + " held the relay lease within 60 s");
    }

    @Override
    public List<Target> targets(Measurements r) {
        List<Target> targets = new ArrayList<>();
        targets.add(new Target("the standby holds the lease after the freeze", "<= 30 s", seconds(takeoverAfter),
                takeoverAfter == null ? Boolean.FALSE : takeoverAfter <= 30));
        targets.add(new Target("the standby publishes after the freeze", "<= 30 s", seconds(standbyPublishingAfter),
                standbyPublishingAfter == null ? Boolean.FALSE : standbyPublishingAfter <= 30));
        targets.add(new Target("the frozen holder publishes nothing once it runs again", "0 events",
                frozenPublishedAfterThaw == null ? "-" : String.format("%.0f events", frozenPublishedAfterThaw),
                frozenPublishedAfterThaw == null ? null : frozenPublishedAfterThaw == 0));
        targets.add(new Target("the frozen holder stands by once it runs again", "not active",
                frozenActiveAfterThaw == null ? "-" : frozenActiveAfterThaw == 0 ? "standby" : "active",
                frozenActiveAfterThaw == null ? null : frozenActiveAfterThaw == 0));
        targets.addAll(outboxTargets(r));
        return targets;
    }
}
