package dev.payments.reconciliation.application.operations;

import dev.payments.reconciliation.application.shared.Answer;
import dev.payments.reconciliation.application.shared.Refusal;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

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
     * @return the plan, applied unless a dry run; refused UNKNOWN_CONSUMER_GROUP if the topic or group is not one of
     *         the configured consumers, CONSUMER_GROUP_ACTIVE if the group still has members, REPLAY_WOULD_SKIP_EVENTS
     *         if {@code from} lies beyond the group's position on any partition (also for a dry run, which must not
     *         promise what the real one refuses)
     */
    public Answer<OffsetReset> replay(String group, String topic, Instant from, boolean dryRun) {
        Objects.requireNonNull(from, "from");
        List<String> consumers = consumersByTopic.get(topic);
        if (consumers == null) {
            return Answer.refused(Refusal.UNKNOWN_CONSUMER_GROUP,
                    "Unknown topic '" + topic + "'; known: " + consumersByTopic.keySet());
        }
        if (!consumers.contains(group)) {
            return Answer.refused(Refusal.UNKNOWN_CONSUMER_GROUP,
                    "'" + group + "' does not consume " + topic + "; its consumers: " + consumers);
        }
        OffsetReset plan = groups.plan(group, topic, from);
        // Checked on the plan, before the group is paused or emptied: a group's position only grows while it
        // consumes and stands still while it is empty, so a target not beyond it now is not beyond it at the move.
        if (plan.skipped() > 0) {
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("skipped", plan.skipped());
            facts.put("partitions", plan.partitions().stream().map(p -> {
                Map<String, Object> partition = new LinkedHashMap<>();
                partition.put("partition", p.partition());
                partition.put("committed", p.committed());
                partition.put("target", p.target());
                partition.put("skipped", p.skipped());
                return partition;
            }).toList());
            return Answer.refused(Refusal.REPLAY_WOULD_SKIP_EVENTS, wouldSkip(plan), facts);
        }
        if (dryRun) {
            return Answer.done(plan);
        }
        try {
            return Answer.done(groups.apply(plan));
        } catch (ConsumerGroupActiveException active) {
            return Answer.refused(Refusal.CONSUMER_GROUP_ACTIVE, active.getMessage(),
                    Map.of("members", active.members()));
        }
    }

    private static String wouldSkip(OffsetReset plan) {
        return "Replaying " + plan.group() + " on " + plan.topic() + " from " + plan.from() + " would move it forward "
                + "past " + plan.skipped() + " record(s) it has not consumed ("
                + plan.partitions().stream().filter(p -> p.skipped() > 0)
                .map(p -> "partition " + p.partition() + ": at " + p.position() + ", target " + p.target())
                .collect(Collectors.joining("; "))
                + "). Replay from a time before the group's position; to skip events on purpose, use Kafka's own "
                + "tools (docs/runbooks/replay.md)";
    }
}
