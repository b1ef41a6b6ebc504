package dev.payments.reconciliation.application.operations;

import dev.payments.reconciliation.application.shared.Answer;
import dev.payments.reconciliation.application.shared.Refusal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** Which topics each configured consumer group reads: the groups an operator may act on. */
public final class ConsumedTopics {

    private final Map<String, List<String>> topicsByGroup;

    /** @param consumersByTopic the consumer groups of each topic ({@code reconciliation.replay.consumers}) */
    public ConsumedTopics(Map<String, List<String>> consumersByTopic) {
        Map<String, Set<String>> byGroup = new LinkedHashMap<>();
        consumersByTopic.forEach((topic, groups) -> groups.forEach(
                group -> byGroup.computeIfAbsent(group, g -> new TreeSet<>()).add(topic)));
        Map<String, List<String>> copy = new LinkedHashMap<>();
        byGroup.forEach((group, topics) -> copy.put(group, List.copyOf(topics)));
        this.topicsByGroup = Map.copyOf(copy);
    }

    /** @return the group's topics; empty if no configured consumer has this group */
    public Optional<List<String>> of(String group) {
        return Optional.ofNullable(topicsByGroup.get(group));
    }

    /** The refusal of a group no configured consumer has. */
    <T> Answer<T> unknown(String group) {
        return Answer.refused(Refusal.UNKNOWN_CONSUMER_GROUP, "Unknown consumer group '" + group + "'; known: "
                + new TreeSet<>(topicsByGroup.keySet()));
    }

    public Set<String> groups() {
        return topicsByGroup.keySet();
    }
}
