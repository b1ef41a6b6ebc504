package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.drills.load.ApprovalClient;
import dev.payments.drills.load.LoadGenerator;
import dev.payments.drills.observe.RelayWatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Issue 13: two replicas of payment-service; the one holding the relay lease is frozen (SIGSTOP: every socket open,
 * nothing answered, as a paused VM or a silent network cut) while the load goes to the other. The standby must take
 * over publishing within 30 s - PostgreSQL ends the frozen holder's silent lease session - and when the frozen one runs
 * again it must find its lease gone and publish nothing more: no event sent by two relays at once.
 */
@Command(name = "lease-holder-frozen", description = "Issue 13: the relay's lease holder frozen (SIGSTOP) beside a standby replica.")
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
    public String description() {
        return "a second payment-service replica takes the load (" + rate + " approvals/s); after " + beforeSeconds
                + " s the first, holding the relay lease, is frozen for " + frozenSeconds + " s, then load for "
                + afterSeconds + " s more";
    }

    @Override
    public void run(Drill drill) throws Exception {
        drill.phase("starting a second payment-service");
        String replicaUrl = drill.target().startReplica(SERVICE);
        drill.note("second payment-service replica at " + replicaUrl + "; the load goes to it, the first holds the lease");
        LoadGenerator toReplica = new LoadGenerator(new ApprovalClient(drill.http(), drill.target().orderUrl(), replicaUrl,
                drill.target().tokens()),
                drill.recorder());
        try (RelayWatch holder = new RelayWatch(drill.http(), drill.target().paymentUrl(), drill.clock()).start();
             RelayWatch standby = new RelayWatch(drill.http(), replicaUrl, drill.clock()).start()) {
            drill.sleep(Duration.ofSeconds(2));
            RelayWatch.Sample first = holder.last();
            if (first == null || first.active() == null || first.active() != 1) {
                drill.note("the first replica did not hold the lease when the drill began: " + first);
            }
            drill.phase("before");
            Thread load = startLoad(drill, toReplica);
            drill.sleep(Duration.ofSeconds(beforeSeconds));
            RelayWatch.Sample standbyBefore = standby.last();
            double standbyPublishedBefore = standbyBefore == null ? 0 : standbyBefore.published();

            drill.phase("lease holder frozen");
            double frozenAt = drill.clock().seconds();
            drill.faultInjected();
            drill.control(SERVICE, "freeze");
            drill.sleep(Duration.ofSeconds(frozenSeconds));
            drill.control(SERVICE, "thaw");
            double thawedAt = drill.clock().seconds();
            drill.recovered();
            drill.phase("after");
            drill.sleep(Duration.ofSeconds(afterSeconds));
            stopLoad(drill, load);
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
