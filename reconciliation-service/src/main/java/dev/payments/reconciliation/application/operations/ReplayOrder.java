package dev.payments.reconciliation.application.operations;

import dev.payments.reconciliation.application.shared.Answer;
import dev.payments.reconciliation.domain.shared.OrderId;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Replays one order's events to one consumer group, for real: the dry run's events of the topics the group reads,
 * copied oldest first to the group's re-drive topic, the path a dead letter's re-drive takes
 * (docs/decisions/dead-letter-redrive.md). Every event is sent, not only those the dry run expects to apply: the
 * group's inbox skips what it applied, so the verdicts (inferred from Kafka for other services' groups) need not be
 * trusted for safety, and the order's events arrive in their order. Each copy is recorded with the operator.
 */
public final class ReplayOrder {

    private final DryRunOrderReplay dryRun;
    private final RedriveChannel channel;
    private final Redrives redrives;
    private final ConsumedTopics consumed;
    private final Clock clock;

    public ReplayOrder(DryRunOrderReplay dryRun, RedriveChannel channel, Redrives redrives, ConsumedTopics consumed,
                       Clock clock) {
        this.dryRun = dryRun;
        this.channel = channel;
        this.redrives = redrives;
        this.consumed = consumed;
        this.clock = clock;
    }

    /** One event of the order, where the group stands with it. */
    public record ReplayedEvent(String topic, int partition, long offset, UUID eventId, String type,
                        OrderReplayReport.Verdict verdict, boolean wouldApply) {
    }

    /** @param applied whether the events were sent (false: a dry run) */
    public record Result(OrderId orderId, String group, boolean applied, List<ReplayedEvent> events) {

        public long wouldApply() {
            return events.stream().filter(ReplayedEvent::wouldApply).count();
        }
    }

    /** @return what was (or would be) sent; refused UNKNOWN_CONSUMER_GROUP if the group is not a configured consumer */
    public Answer<Result> replay(OrderId orderId, String group, String operator, boolean dryRunOnly) {
        Objects.requireNonNull(operator, "operator");
        Optional<List<String>> consumes = consumed.of(group);
        if (consumes.isEmpty()) {
            return consumed.unknown(group);
        }
        List<String> topics = consumes.get();
        List<ReplayedEvent> events = new ArrayList<>();
        for (OrderReplayReport.Event event : dryRun.dryRun(orderId, null).events()) {
            if (!topics.contains(event.topic())) {
                continue;
            }
            event.consumers().stream().filter(c -> c.group().equals(group)).findFirst().ifPresent(c -> events.add(
                    new ReplayedEvent(event.topic(), event.partition(), event.offset(), event.eventId(), event.type(),
                            c.verdict(), c.wouldApply())));
        }
        if (!dryRunOnly) {
            for (ReplayedEvent event : events) {
                RecordRef record = new RecordRef(event.topic(), event.partition(), event.offset());
                channel.copy(record, event.topic(), group, operator);
                redrives.replayed(record, group, event.eventId(), orderId.toString(), operator, clock.instant());
            }
        }
        return Answer.done(new Result(orderId, group, !dryRunOnly, List.copyOf(events)));
    }
}
