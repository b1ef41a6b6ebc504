package dev.payments.reconciliation.application.operations;

import dev.payments.contracts.Topics;
import dev.payments.reconciliation.domain.shared.OrderId;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Reads one order's events back from both topics, with their original event ids, and shows for every consumer group
 * what a replay would make it do. Only this service's own inbox can be read directly (no service reads another's
 * tables); for the others the answer follows from Kafka: a consumer commits an offset only after its inbox transaction,
 * and what failed for good is on its dead-letter topic, so "offset past the record, not dead-lettered" means "its
 * inbox has the id".
 */
public final class DryRunOrderReplay {

    private static final List<String> TOPICS = List.of(Topics.ORDER_EVENTS, Topics.PAYMENT_EVENTS);

    private final EventLog log;
    private final ConsumerGroups groups;
    private final AppliedEvents ownInbox;
    private final Map<String, List<String>> consumersByTopic;
    private final String ownGroup;

    public DryRunOrderReplay(EventLog log, ConsumerGroups groups, AppliedEvents ownInbox,
                             Map<String, List<String>> consumersByTopic, String ownGroup) {
        this.log = log;
        this.groups = groups;
        this.ownInbox = ownInbox;
        this.consumersByTopic = Map.copyOf(consumersByTopic);
        this.ownGroup = ownGroup;
    }

    /** @param since read the topics from here (null: from the start) */
    public OrderReplayReport dryRun(OrderId orderId, Instant since) {
        List<OrderReplayReport.Event> events = new ArrayList<>();
        for (String topic : TOPICS) {
            List<String> consumers = consumersByTopic.getOrDefault(topic, List.of());
            List<EventLog.LoggedEvent> logged = log.eventsOfOrder(topic, orderId, since);
            if (logged.isEmpty()) {
                continue;
            }
            Map<String, Map<Integer, Long>> committed = new HashMap<>();
            Map<String, Set<UUID>> deadLettered = new HashMap<>();
            for (String group : consumers) {
                committed.put(group, groups.committed(group, topic));
                deadLettered.put(group, log.deadLettered(topic, group, orderId));
            }
            for (EventLog.LoggedEvent event : logged) {
                List<OrderReplayReport.Consumer> verdicts = new ArrayList<>();
                for (String group : consumers) {
                    verdicts.add(verdict(group, event, committed.get(group).get(event.partition()),
                            deadLettered.get(group)));
                }
                events.add(new OrderReplayReport.Event(topic, event.partition(), event.offset(), event.timestamp(),
                        event.eventId(), event.type(), verdicts));
            }
        }
        events.sort((a, b) -> a.timestamp().compareTo(b.timestamp()));
        return new OrderReplayReport(orderId, events);
    }

    private OrderReplayReport.Consumer verdict(String group, EventLog.LoggedEvent event, Long committed,
                                               Set<UUID> deadLettered) {
        boolean past = committed != null && committed > event.offset();
        boolean dead = event.eventId() != null && deadLettered.contains(event.eventId());
        if (group.equals(ownGroup) && event.eventId() != null && ownInbox.applied(event.eventId())) {
            return consumer(group, OrderReplayReport.Verdict.ALREADY_APPLIED, "inbox has " + event.eventId());
        }
        if (dead) {
            return consumer(group, OrderReplayReport.Verdict.DEAD_LETTERED,
                    "on " + Topics.deadLetter(event.topic(), group) + "; a replay applies it");
        }
        if (committed == null) {
            return consumer(group, OrderReplayReport.Verdict.NO_COMMITTED_OFFSET,
                    "no committed offset on partition " + event.partition());
        }
        if (!past) {
            return consumer(group, OrderReplayReport.Verdict.NOT_YET_CONSUMED,
                    "committed offset " + committed + " has not reached " + event.offset());
        }
        if (group.equals(ownGroup)) {
            return consumer(group, OrderReplayReport.Verdict.MISSING_FROM_INBOX,
                    "offset " + committed + " is past it but the inbox lacks " + event.eventId());
        }
        return consumer(group, OrderReplayReport.Verdict.CONSUMED,
                "committed offset " + committed + " is past " + event.offset() + " and it is not dead-lettered");
    }

    private static OrderReplayReport.Consumer consumer(String group, OrderReplayReport.Verdict verdict, String detail) {
        boolean wouldApply = verdict == OrderReplayReport.Verdict.DEAD_LETTERED
                || verdict == OrderReplayReport.Verdict.MISSING_FROM_INBOX
                || verdict == OrderReplayReport.Verdict.NOT_YET_CONSUMED
                || verdict == OrderReplayReport.Verdict.NO_COMMITTED_OFFSET;
        return new OrderReplayReport.Consumer(group, verdict, wouldApply, detail);
    }
}
