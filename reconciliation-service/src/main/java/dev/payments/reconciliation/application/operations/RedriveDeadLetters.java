package dev.payments.reconciliation.application.operations;

import dev.payments.reconciliation.application.shared.Answer;
import dev.payments.reconciliation.application.shared.Refusal;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Hands dead letters back to the consumer group that parked them, through its re-drive topic: its listener applies
 * them as it would have the first time (the inbox dedupes, a failure is dead-lettered again), while it runs, and no
 * other group sees them (docs/decisions/dead-letter-redrive.md). Who re-drove a letter is recorded with it; a letter
 * already re-driven is not sent again.
 */
public final class RedriveDeadLetters {

    private final ListDeadLetters list;
    private final ConsumedTopics consumed;
    private final Redrives redrives;
    private final RedriveChannel channel;
    private final DeadLetterObserver observer;
    private final TransactionTemplate transaction;
    private final Clock clock;

    public RedriveDeadLetters(ListDeadLetters list, ConsumedTopics consumed, Redrives redrives, RedriveChannel channel,
                              DeadLetterObserver observer, TransactionTemplate transaction, Clock clock) {
        this.list = list;
        this.consumed = consumed;
        this.redrives = redrives;
        this.channel = channel;
        this.observer = observer;
        this.transaction = transaction;
        this.clock = clock;
    }

    /** What a re-drive did to one letter. */
    public record Result(DeadLetter letter, boolean redriven, String redrivenBy, Instant redrivenAt) {
    }

    /** @return what was done; refused if the group is not a configured consumer or has no dead letter of the event */
    public Answer<Result> one(String group, UUID eventId, String operator) {
        Optional<List<DeadLetter>> letters = list.letters(group);
        if (letters.isEmpty()) {
            return consumed.unknown(group);
        }
        return letters.get().stream().filter(l -> eventId.equals(l.eventId())).findFirst()
                .map(letter -> Answer.done(redrive(letter, operator)))
                .orElseGet(() -> Answer.refused(Refusal.DEAD_LETTER_NOT_FOUND,
                        "Consumer group " + group + " has no dead letter of event " + eventId));
    }

    /**
     * Every letter of the order in the group, oldest first failure first (so its events arrive in their order).
     *
     * @return what was done to each; refused if the group is not a configured consumer or has no dead letter of the
     *         order
     */
    public Answer<List<Result>> ofOrder(String group, String orderId, String operator) {
        Optional<List<DeadLetter>> all = list.letters(group);
        if (all.isEmpty()) {
            return consumed.unknown(group);
        }
        List<DeadLetter> letters = all.get().stream()
                .filter(l -> orderId.equals(l.orderId()) && l.eventId() != null).toList();
        if (letters.isEmpty()) {
            return Answer.refused(Refusal.DEAD_LETTER_NOT_FOUND,
                    "Consumer group " + group + " has no dead letter of order " + orderId);
        }
        List<Result> results = new ArrayList<>();
        for (DeadLetter letter : letters) {
            results.add(redrive(letter, operator));
        }
        return Answer.done(results);
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
