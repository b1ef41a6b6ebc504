package dev.payments.outbox.inbox;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Which re-drive topic each listener is given: its topics' own, for the group Spring Kafka would put it in. */
class RedriveSubscriptionsTest {

    private final MockEnvironment environment = new MockEnvironment()
            .withProperty("spring.application.name", "order-service")
            .withProperty("spring.kafka.consumer.group-id", "${spring.application.name}")
            .withProperty("it.topic", "payment.events");
    private final RedriveSubscriptions subscriptions = new RedriveSubscriptions(environment);

    @Test
    void aListenerOfTheServicesGroupAlsoReadsItsTopicsRedriveTopics() {
        Map<String, Object> enhanced = subscriptions.apply(listener("topics", new String[]{"${it.topic}"}), null);

        assertThat((String[]) enhanced.get("topics"))
                .containsExactly("${it.topic}", "payment.events.order-service.redrive");
        assertThat(subscriptions.topics()).containsExactly("payment.events.order-service.redrive");
    }

    @Test
    void theGroupIsTheListenersGroupIdOrItsIdWhenThatIsTheGroup() {
        Map<String, Object> withGroup = listener("topics", new String[]{"order.events"});
        withGroup.put("groupId", "tracing-test-consumer");
        assertThat((String[]) subscriptions.apply(withGroup, null).get("topics"))
                .contains("order.events.tracing-test-consumer.redrive");

        Map<String, Object> withId = listener("topics", new String[]{"order.events"});
        withId.put("id", "listener-7");
        assertThat((String[]) subscriptions.apply(withId, null).get("topics"))
                .contains("order.events.listener-7.redrive");

        withId.put("idIsGroup", false);
        assertThat((String[]) subscriptions.apply(withId, null).get("topics"))
                .as("an id that is not the group").contains("order.events.order-service.redrive");
    }

    @Test
    void listenersOnPatternsOrPartitionsAreLeftAlone() {
        Map<String, Object> pattern = listener("topicPattern", "payment\\..*");
        pattern.put("topics", new String[0]);

        assertThat(subscriptions.apply(pattern, null)).isEqualTo(pattern);
        assertThat(subscriptions.topics()).isEmpty();
    }

    private static Map<String, Object> listener(String key, Object value) {
        Map<String, Object> attributes = new HashMap<>();
        attributes.put(key, value);
        attributes.put("groupId", "");
        attributes.put("id", "");
        attributes.put("idIsGroup", true);
        return attributes;
    }
}
