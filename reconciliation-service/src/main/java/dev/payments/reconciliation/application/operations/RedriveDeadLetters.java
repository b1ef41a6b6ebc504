package dev.payments.reconciliation.application.operations;

import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Hands dead letters back to the consumer group that parked them, through its re-drive topic: its listener applies
 * them as it would have the first time (the inbox dedupes, a failure is dead-lettered again), while it runs, and no
 * other group sees them (docs/decisions/dead-letter-redrive.md). Who re-drove a letter is recorded with it; a letter
 * already re-driven is not sent again.
 */
public final class RedriveDeadLetters {

    private final ListDeadLetters list;
    private final Redrives redrives;
    private final RedriveChannel channel;
    private final DeadLetterObserver observer;
    private final TransactionTemplate transaction;
    private final Clock clock;

    public RedriveDeadLetters(ListDeadLetters list, Redrives redrives, RedriveChannel channel,
                              DeadLetterObserver observer, TransactionTemplate transaction, Clock clock) {
        this.list = list;
        this.redrives = redrives;
        this.channel = channel;
        this.observer = observer;
        this.transaction = transaction;
        this.clock = clock;
    }

    /** What a re-drive did to one letter. */
    public record Result(DeadLetter letter, boolean redriven, String redrivenBy, Instant redrivenAt) {
    }

    /**
     * @throws UnknownConsumerGroupException if the group is not a configured consumer
     * @throws DeadLetterNotFoundException   if the group has no dead letter of that event
     */
    public Result one(String group, UUID eventId, String operator) {
        DeadLetter letter = list.letters(group).stream().filter(l -> eventId.equals(l.eventId())).findFirst()
                .orElseThrow(() -> new DeadLetterNotFoundException(
                        "Consumer group " + group + " has no dead letter of event " + eventId));
        return redrive(letter, operator);
    }

    /**
     * Every letter of the order in the group, oldest first failure first (so its events arrive in their order).
     *
     * @throws DeadLetterNotFoundException if the group has no dead letter of that order
     */
    public List<Result> ofOrder(String group, String orderId, String operator) {
        List<DeadLetter> letters = list.letters(group).stream()
                .filter(l -> orderId.equals(l.orderId()) && l.eventId() != null).toList();
        if (letters.isEmpty()) {
            throw new DeadLetterNotFoundException("Consumer group " + group + " has no dead letter of order " + orderId);
        }
        List<Result> results = new ArrayList<>();
        for (DeadLetter letter : letters) {
            results.add(redrive(letter, operator));
        }
        return results;
    }

    private Result redrive(DeadLetter letter, String operator) {
        Objects.requireNonNull(operator, "operator");
        if (letter.redrive() != null) {
            return new Result(letter, false, letter.redrive().by(), letter.redrive().at());
        }
        Instant now = clock.instant();
        // The mark and the send in one transaction: a send Kafka refuses leaves the letter waiting; two operators at
        // once send it once (the second finds the mark). A commit lost after the send may let it be sent again,
        // which the consumer's inbox absorbs.
        Boolean sent = transaction.execute(status -> {
            if (!redrives.mark(letter.letter(), letter.group(), letter.eventId(), letter.orderId(), operator, now)) {
                return false;
            }
            channel.copy(letter.letter(), letter.sourceTopic(), letter.group(), operator);
            return true;
        });
        if (Boolean.TRUE.equals(sent)) {
            observer.redriven(letter.group(), 1);
            return new Result(letter, true, operator, now);
        }
        Redrives.Redrive earlier = redrives.ofGroup(letter.group()).get(letter.letter());
        return new Result(letter, false, earlier == null ? null : earlier.by(), earlier == null ? null : earlier.at());
    }
}
