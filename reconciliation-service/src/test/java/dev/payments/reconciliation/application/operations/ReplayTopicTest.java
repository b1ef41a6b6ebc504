package dev.payments.reconciliation.application.operations;

import dev.payments.reconciliation.application.shared.Answer;
import dev.payments.reconciliation.application.shared.Refusal;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The replay rule without Kafka: back (or to where the group stands) is allowed, forward never. */
class ReplayTopicTest {

    private static final Instant FROM = Instant.parse("2026-12-01T07:00:00Z");

    private final List<OffsetReset> applied = new ArrayList<>();

    @Test
    void aTargetAtOrBeforeTheGroupsPositionIsMoved() {
        ReplayTopic replay = replayWith(new OffsetReset.Partition(0, 10L, 0, 4, 12),
                new OffsetReset.Partition(1, 7L, 0, 7, 7), new OffsetReset.Partition(2, null, 3, 3, 3));

        OffsetReset reset = ((Answer.Done<OffsetReset>) replay.replay("order-service", "payment.events", FROM, false))
                .value();

        assertThat(reset.applied()).isTrue();
        assertThat(reset.toReplay()).isEqualTo(8);
        assertThat(applied).hasSize(1);
    }

    @Test
    void aTargetBeyondTheGroupsPositionIsRefusedDryRunOrNot() {
        ReplayTopic replay = replayWith(new OffsetReset.Partition(0, 10L, 0, 4, 12),
                new OffsetReset.Partition(1, 5L, 0, 7, 7), new OffsetReset.Partition(2, null, 3, 6, 6));

        for (boolean dryRun : List.of(true, false)) {
            assertThat(replay.replay("order-service", "payment.events", FROM, dryRun))
                    .isInstanceOfSatisfying(Answer.Refused.class, refused -> {
                        assertThat(refused.refusal()).isEqualTo(Refusal.REPLAY_WOULD_SKIP_EVENTS);
                        assertThat(refused.facts()).as("2 on partition 1, 3 never consumed on 2")
                                .containsEntry("skipped", 5L);
                        assertThat(refused.detail()).contains("partition 1: at 5, target 7",
                                "partition 2: at 3, target 6");
                    });
        }
        assertThat(applied).isEmpty();
    }

    private ReplayTopic replayWith(OffsetReset.Partition... partitions) {
        ConsumerGroups groups = new ConsumerGroups() {
            @Override
            public OffsetReset plan(String group, String topic, Instant from) {
                return new OffsetReset(group, topic, from, false, List.of(partitions));
            }

            @Override
            public OffsetReset apply(OffsetReset plan) {
                applied.add(plan);
                return plan.asApplied();
            }

            @Override
            public Map<Integer, Long> committed(String group, String topic) {
                return Map.of();
            }
        };
        return new ReplayTopic(groups, Map.of("payment.events", List.of("order-service")));
    }
}
