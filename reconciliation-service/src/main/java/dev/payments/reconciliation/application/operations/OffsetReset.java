package dev.payments.reconciliation.application.operations;

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
     * @param start     the partition's first offset still on the broker: where the group reads from without a
     *                  committed offset (the consumers start from the earliest record)
     * @param target    the first offset at or after the timestamp (the end offset if there is none)
     * @param end       the partition's end offset when looked at
     */
    public record Partition(int partition, Long committed, long start, long target, long end) {

        /** Where the group would read next if nobody moved it. */
        public long position() {
            return committed != null ? committed : start;
        }

        /** Records the group will be handed (again) from the target to the end. */
        public long toReplay() {
            return end - target;
        }

        /**
         * Records between the group's position and the target that it would never be handed: a target beyond the
         * position moves the group forward, past events it has not applied.
         */
        public long skipped() {
            return Math.max(0, target - position());
        }
    }

    public OffsetReset asApplied() {
        return new OffsetReset(group, topic, from, true, partitions);
    }

    public long toReplay() {
        return partitions.stream().mapToLong(Partition::toReplay).sum();
    }

    public long skipped() {
        return partitions.stream().mapToLong(Partition::skipped).sum();
    }
}
