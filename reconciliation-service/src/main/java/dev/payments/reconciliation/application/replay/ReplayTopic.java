package dev.payments.reconciliation.application.replay;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Incident recovery: a consumer group re-consumes a topic from a timestamp. Safe because every consumer checks the
 * event id in its inbox in the same transaction as the effect: what it applied before changes nothing; what it missed
 * (dead-lettered, or lost with a restored database) is applied now.
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
        return groups.resetToTime(group, topic, from, dryRun);
    }
}
