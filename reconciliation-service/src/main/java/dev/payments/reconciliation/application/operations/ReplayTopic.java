package dev.payments.reconciliation.application.operations;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Incident recovery: a consumer group re-consumes a topic from a timestamp. Safe because every consumer checks the
 * event id in its inbox in the same transaction as the effect: what it applied before changes nothing; what it missed
 * (dead-lettered, or lost with a restored database) is applied now. Never the other way: a timestamp beyond where the
 * group stands would skip events it has not applied, so it is refused.
 */
public final class ReplayTopic {

    private final ConsumerGroups groups;
    private final Map<String, List<String>> consumersByTopic;

    /** @param consumersByTopic the consumer groups of each topic; only these may be moved */
    public ReplayTopic(ConsumerGroups groups, Map<String, List<String>> consumersByTopic) {
        this.groups = groups;
        this.consumersByTopic = Map.copyOf(consumersByTopic);
    }

    /**
     * @throws UnknownConsumerGroupException if the topic or group is not one of the configured consumers
     * @throws ConsumerGroupActiveException  if the group still has members
     * @throws ReplayWouldSkipEventsException if {@code from} lies beyond the group's position on any partition (also
     *                                        for a dry run, which must not promise what the real one refuses)
     */
    public OffsetReset replay(String group, String topic, Instant from, boolean dryRun) {
        Objects.requireNonNull(from, "from");
        List<String> consumers = consumersByTopic.get(topic);
        if (consumers == null) {
            throw new UnknownConsumerGroupException("Unknown topic '" + topic + "'; known: " + consumersByTopic.keySet());
        }
        if (!consumers.contains(group)) {
            throw new UnknownConsumerGroupException("'" + group + "' does not consume " + topic + "; its consumers: "
                    + consumers);
        }
        OffsetReset plan = groups.plan(group, topic, from);
        // Checked on the plan, before the group is paused or emptied: a group's position only grows while it
        // consumes and stands still while it is empty, so a target not beyond it now is not beyond it at the move.
        if (plan.skipped() > 0) {
            throw new ReplayWouldSkipEventsException(plan);
        }
        return dryRun ? plan : groups.apply(plan);
    }
}
