package dev.payments.reconciliation.application.operations;

/** Kafka moves a group's offsets only while it has no members; the service must be stopped first. */
public class ConsumerGroupActiveException extends RuntimeException {

    private final String group;
    private final int members;

    public ConsumerGroupActiveException(String group, int members, String state) {
        super("Consumer group " + group + " is " + state + " with " + members + " member(s). Kafka moves offsets only "
                + "for a group without members: stop (scale to zero) the service that consumes as '" + group
                + "', reset, then start it (docs/runbooks/replay.md)");
        this.group = group;
        this.members = members;
    }

    public String group() {
        return group;
    }

    public int members() {
        return members;
    }
}
