package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.DrillResult.Target;
import dev.payments.localstack.Component;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One failure of the field reports, as a script over a {@link Drill}. */
public interface Scenario {

    String name();

    /**
     * What the drill reproduces: a field report ("000", "001", "002") or, for a drill of a capability the reports
     * do not cover, that capability ("outage", "relay", "refunds", "scale-out", "retention", "warm-start").
     */
    String fieldReport();

    String description();

    /** Spring properties per service for a stack the drill starts itself (ignored for an external stack). */
    Map<Component, List<String>> settings();

    /** Every parameter in force, for the report. */
    Map<String, Object> parameters();

    /** Whether the services of a stack the drill starts itself use class data archives (as shipped: yes). */
    default boolean classDataSharing() {
        return true;
    }

    /** JVMs per service on a stack the drill starts itself (default: one of each). */
    default Map<Component, Integer> replicas() {
        return Map.of();
    }

    /**
     * The same scenario to run again on a stack of its own right after this one, for comparison in the same report
     * (e.g. the single-replica stack beside the replicated one); its checks count too.
     */
    default Optional<Scenario> baseline() {
        return Optional.empty();
    }

    /** Orders to place before the load. */
    int ordersNeeded();

    /**
     * Approvals the runner makes against the healthy PG after placing the orders and before {@link #run}, 5 at a
     * time (none by default). Their orders are placed first, each on a member account of its own, and count in the
     * books like every other.
     */
    default int warmupApprovals() {
        return 0;
    }

    /**
     * Member accounts the orders are spread over: 000's 30, or more when the orders need them, so that no member has
     * more orders in the whole drill than the service's per-member limit takes in a minute (000: 10). The service runs
     * its shipped limit and the load never meets it.
     */
    default int members() {
        return Math.max(30, (int) Math.ceil(ordersNeeded() / (double) SHIPPED_PER_MEMBER_PER_MINUTE));
    }

    /** payment-service's {@code payment.approval.per-member-per-minute} as shipped (000). */
    int SHIPPED_PER_MEMBER_PER_MINUTE = 10;

    void run(Drill drill) throws Exception;

    /** After every payment has settled (or the deadline passed), before the audit: checks that need the quiet end. */
    default void afterSettling(Drill drill) throws Exception {
    }

    /**
     * Field report 000's broken structures ({@code drills/baseline}) to run this scenario against too, each after ours
     * on the same stack, PG simulator and load (none by default). Not {@link #baseline()}, which is a whole second
     * stack of ours.
     */
    default List<BaselineStructure> baselines() {
        return List.of();
    }

    /** The goals for this scenario, measured (not assertions). */
    default List<Target> targets(Measurements measured) {
        return List.of();
    }
}
