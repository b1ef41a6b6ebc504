package dev.payments.drills.scenario;

import dev.payments.drills.analysis.DrillResult.Measurements;
import dev.payments.drills.analysis.Stats;

import dev.payments.localstack.Component;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parameters and per-service settings kept in insertion order, so the report lists them as the scenario set them. */
abstract class BaseScenario implements Scenario {

    private final Map<String, Object> parameters = new LinkedHashMap<>();
    private final Map<Component, List<String>> settings = new LinkedHashMap<>();

    protected <T> T param(String name, T value) {
        parameters.put(name, value);
        return value;
    }

    protected void setting(Component component, String property, Object value) {
        settings.computeIfAbsent(component, c -> new ArrayList<>()).add("--" + property + "=" + value);
    }

    /** The per-member limit (000: 10/min) raised, because this scenario's load is not about it; said in the report. */
    protected void unlimitedMembers() {
        setting(Component.PAYMENT_SERVICE, "payment.approval.per-member-per-minute", 1_000_000);
    }

    @Override
    public Map<String, Object> parameters() {
        return parameters;
    }

    @Override
    public Map<Component, List<String>> settings() {
        return settings;
    }

    /** Not settled before the deadline is a miss, unless nothing was unsettled to begin with. */
    static Boolean settledWithin(Measurements r, double goal) {
        Double settled = r.recover().allSettledAfter();
        if (settled == null) {
            return r.recover().unsettledAtRecovery() == null ? null : r.recover().unsettledAtRecovery() == 0;
        }
        return settled <= goal;
    }

    static String settledText(Measurements r) {
        Double settled = r.recover().allSettledAfter();
        return settled != null ? Stats.s(settled) : "not within " + (long) r.recover().settleDeadlineSeconds()
                + " s (" + r.recover().unsettledAtRecovery() + " unsettled at the recovery)";
    }

    static Boolean atMost(Double measured, double goal) {
        return measured == null ? null : measured <= goal;
    }
}
