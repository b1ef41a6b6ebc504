package dev.payments.reconciliation.application.replay;

import java.time.Instant;
import java.util.List;

/**
 * What a replay from a timestamp did (or, as a dry run, would do) to one group's offsets on one topic.
 *
 * @param applied whether the offsets were moved
 */
public record OffsetReset(String group, String topic, Instant from, boolean applied, List<Partition> partitions) {

    public OffsetReset {
        partitions = List.copyOf(partitions);
    }

    /**
     * @param committed the group's offset before, or null if it never committed on the partition
     * @param target    the first offset at or after the timestamp (the end offset if there is none)
     * @param end       the partition's end offset when looked at
     */
    public record Partition(int partition, Long committed, long target, long end) {

        /** Records the group will be handed (again) from the target to the end. */
        public long toReplay() {
            return end - target;
        }
    }

    public long toReplay() {
        return partitions.stream().mapToLong(Partition::toReplay).sum();
    }
}
