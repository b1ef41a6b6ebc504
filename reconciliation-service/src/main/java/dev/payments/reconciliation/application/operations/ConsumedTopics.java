package dev.payments.reconciliation.application.operations;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    /** @throws UnknownConsumerGroupException if no configured consumer has this group */
    public List<String> of(String group) {
        List<String> topics = topicsByGroup.get(group);
        if (topics == null) {
            throw new UnknownConsumerGroupException("Unknown consumer group '" + group + "'; known: "
                    + new TreeSet<>(topicsByGroup.keySet()));
        }
        return topics;
    }

    public Set<String> groups() {
        return topicsByGroup.keySet();
    }
}
