package dev.payments.pgsim.fault;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The installed faults, one slot per operation plus {@code all}. An operation uses its own slot if
 * set, else the {@code all} slot — slots are not merged field by field, so what is set for an
 * operation is exactly what it gets. Reads are lock-free (a snapshot per change).
 */
public final class Faults {

    private static final ActiveFault NONE = new ActiveFault(FaultSpec.none(Operation.ALL).withSeed(0L));

    private final Long defaultSeed;
    private final Map<Operation, ActiveFault> slots = new EnumMap<>(Operation.class);
    private volatile Map<Operation, ActiveFault> effective = resolve(Map.of());

    /** @param defaultSeed seed for specs that carry none; null = a fresh random seed per spec */
    public Faults(Long defaultSeed) {
        this.defaultSeed = defaultSeed;
    }

    public ActiveFault forOperation(Operation operation) {
        return effective.get(operation);
    }

    /** Installs the specs (each replacing its operation's slot) and releases what they replace. */
    public synchronized void set(List<FaultSpec> specs) {
        for (FaultSpec spec : specs) {
            long seed = spec.seed() != null ? spec.seed()
                    : defaultSeed != null ? defaultSeed : ThreadLocalRandom.current().nextLong();
            ActiveFault replaced = slots.put(spec.operation(), new ActiveFault(spec.withSeed(seed)));
            if (replaced != null) {
                replaced.release();
            }
        }
        effective = resolve(slots);
    }

    public synchronized void reset() {
        slots.values().forEach(ActiveFault::release);
        slots.clear();
        effective = resolve(slots);
    }

    public synchronized void reset(Operation operation) {
        ActiveFault removed = slots.remove(operation);
        if (removed != null) {
            removed.release();
        }
        effective = resolve(slots);
    }

    /** The installed specs with their effective seeds, in operation order. */
    public synchronized List<FaultSpec> current() {
        List<FaultSpec> specs = new ArrayList<>();
        slots.values().forEach(active -> specs.add(active.spec()));
        return specs;
    }

    public boolean refusingConnections() {
        ActiveFault all = effective.get(Operation.ALL);
        return all.spec().refusesConnections();
    }

    private static Map<Operation, ActiveFault> resolve(Map<Operation, ActiveFault> slots) {
        Map<Operation, ActiveFault> resolved = new EnumMap<>(Operation.class);
        ActiveFault all = slots.getOrDefault(Operation.ALL, NONE);
        for (Operation operation : Operation.values()) {
            resolved.put(operation, slots.getOrDefault(operation, all));
        }
        return Collections.unmodifiableMap(resolved);
    }
}
