package dev.payments.drills.observe;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Named moments of a drill (fault injected, PG recovered, Kafka back...), drawn on every chart. */
public final class Timeline {

    /** The moment the scenario broke something; detection times are measured from the first one. */
    public static final String FAULT = "fault injected";
    /** The moment the broken part was healthy again; recovery times are measured from the first one. */
    public static final String RECOVERED = "recovered";
    /** Every service's consumer group at lag 0 after the load: the work the load deferred is done. */
    public static final String CAUGHT_UP = "consumers caught up";

    public record Mark(double t, String name) {
    }

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Timeline.class);
    private final Clock clock;
    private final List<Mark> marks = new ArrayList<>();

    public Timeline(Clock clock) {
        this.clock = clock;
    }

    public synchronized double mark(String name) {
        double t = clock.seconds();
        marks.add(new Mark(t, name));
        LOG.info("drill mark at {} s: {}", String.format("%.2f", t), name);
        return t;
    }

    public synchronized List<Mark> marks() {
        return List.copyOf(marks);
    }

    public synchronized Optional<Double> first(String name) {
        return marks.stream().filter(m -> m.name().equals(name)).map(Mark::t).findFirst();
    }
}
