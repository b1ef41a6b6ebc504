package dev.payments.outbox.inbox;

import dev.payments.contracts.Topics;
import org.springframework.core.env.PropertyResolver;
import org.springframework.kafka.annotation.KafkaListenerAnnotationBeanPostProcessor.AnnotationEnhancer;

import java.lang.reflect.AnnotatedElement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * Every {@code @KafkaListener} of a topic also reads that topic's re-drive topic for its own consumer group
 * ({@link Topics#redrive}): what an operator re-drives (a dead letter, an order's events) reaches that group alone,
 * through the listener, the inbox and the error handling it would have met the first time, while the consumer runs
 * (docs/decisions/dead-letter-redrive.md). One mechanism for every service: no listener names the topic itself.
 *
 * <p>The group is the listener's {@code groupId}, else its {@code id} when that is the group, else
 * {@code spring.kafka.consumer.group-id} (the outbox library defaults it to {@code spring.application.name}), as
 * Spring Kafka decides it. Listeners on a topic pattern or on explicit partitions are left as they are.
 */
public final class RedriveSubscriptions implements AnnotationEnhancer {

    private static final String DEFAULT_GROUP = "${spring.kafka.consumer.group-id:${spring.application.name:}}";

    private final PropertyResolver properties;
    private final Set<String> topics = new ConcurrentSkipListSet<>();

    public RedriveSubscriptions(PropertyResolver properties) {
        this.properties = properties;
    }

    @Override
    public Map<String, Object> apply(Map<String, Object> attributes, AnnotatedElement element) {
        if (!(attributes.get("topics") instanceof String[] declared) || declared.length == 0) {
            return attributes;
        }
        String group = group(attributes);
        if (group.isBlank()) {
            return attributes;
        }
        List<String> subscribed = new ArrayList<>(Arrays.asList(declared));
        for (String topic : declared) {
            String redrive = Topics.redrive(properties.resolveRequiredPlaceholders(topic), group);
            topics.add(redrive);
            if (!subscribed.contains(redrive)) {
                subscribed.add(redrive);
            }
        }
        Map<String, Object> enhanced = new LinkedHashMap<>(attributes);
        enhanced.put("topics", subscribed.toArray(String[]::new));
        return enhanced;
    }

    /** The re-drive topics the listeners read, to be created before they start. */
    public Set<String> topics() {
        return Set.copyOf(topics);
    }

    private String group(Map<String, Object> attributes) {
        if (attributes.get("groupId") instanceof String groupId && !groupId.isBlank()) {
            return properties.resolveRequiredPlaceholders(groupId);
        }
        boolean idIsGroup = !(attributes.get("idIsGroup") instanceof Boolean flag) || flag;
        if (idIsGroup && attributes.get("id") instanceof String id && !id.isBlank()) {
            return properties.resolveRequiredPlaceholders(id);
        }
        return properties.resolvePlaceholders(DEFAULT_GROUP);
    }
}
