package dev.payments.reconciliation.application.operations;

import dev.payments.reconciliation.application.shared.Answer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The dead letters of one consumer group, read from its dead-letter topics (small: people read them, nothing streams
 * into them at throughput) and joined with who re-drove what. Records of one event are one letter: an event
 * re-driven and dead-lettered again is waiting again, and shows since when it has been failing.
 */
public final class ListDeadLetters {

    /** The largest page: a group with more waiting letters is an incident, read page by page. */
    public static final int MAX_PAGE_SIZE = 500;

    private final DeadLetterLog log;
    private final Redrives redrives;
    private final ConsumedTopics consumed;
    private final DeadLetterObserver observer;

    public ListDeadLetters(DeadLetterLog log, Redrives redrives, ConsumedTopics consumed, DeadLetterObserver observer) {
        this.log = log;
        this.redrives = redrives;
        this.consumed = consumed;
        this.observer = observer;
    }

    /**
     * @param status only letters in this status (null: all)
     * @return one page; refused UNKNOWN_CONSUMER_GROUP if the group is not a configured consumer
     */
    public Answer<DeadLetterPage> list(String group, DeadLetter.Status status, int page, int size) {
        if (page < 0 || size < 1 || size > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page must be 0 or more and size 1 to " + MAX_PAGE_SIZE);
        }
        Optional<List<String>> topics = consumed.of(group);
        if (topics.isEmpty()) {
            return consumed.unknown(group);
        }
        List<DeadLetter> letters = letters(group, topics.get());
        List<DeadLetter> matching = letters.stream()
                .filter(letter -> status == null || letter.status() == status).toList();
        int from = (int) Math.min((long) page * size, matching.size());
        int to = Math.min(from + size, matching.size());
        return Answer.done(new DeadLetterPage(group, page, size, matching.size(), waiting(letters),
                List.copyOf(matching.subList(from, to))));
    }

    /** Every letter of the group, oldest first failure first; empty if the group is not a configured consumer. */
    Optional<List<DeadLetter>> letters(String group) {
        return consumed.of(group).map(topics -> letters(group, topics));
    }

    /** Every letter of the group on its topics, oldest first failure first; refreshes the group's waiting count. */
    private List<DeadLetter> letters(String group, List<String> topics) {
        Map<RecordRef, Redrives.Redrive> marks = redrives.ofGroup(group);
        List<DeadLetter> letters = new ArrayList<>();
        for (String topic : topics) {
            Map<Object, List<DeadLetterLog.Parked>> byEvent = new LinkedHashMap<>();
            for (DeadLetterLog.Parked parked : log.parked(topic, group)) {
                // Without an event id a record is its own letter (it can only be looked at: the inbox needs the id).
                Object identity = parked.eventId() != null ? parked.eventId() : parked.letter();
                byEvent.computeIfAbsent(identity, id -> new ArrayList<>()).add(parked);
            }
            byEvent.values().forEach(records -> letters.add(letter(group, topic, records, marks)));
        }
        letters.sort(Comparator.comparing(DeadLetter::firstFailure).thenComparing(l -> l.letter().toString()));
        observer.waiting(group, waiting(letters));
        return letters;
    }

    /** Counts every group's waiting letters (for the metric). */
    public void countWaiting() {
        consumed.groups().forEach(this::letters);
    }

    private static DeadLetter letter(String group, String topic, List<DeadLetterLog.Parked> records,
                                     Map<RecordRef, Redrives.Redrive> marks) {
        DeadLetterLog.Parked latest = records.get(records.size() - 1);
        DeadLetterLog.Parked first = records.get(0);
        return new DeadLetter(group, topic, latest.eventId(), latest.orderId(), latest.type(), latest.kind(),
                latest.exception(), latest.message(), latest.cause(), first.firstFailure(), latest.parkedAt(),
                records.size(), latest.letter(), latest.original(), marks.get(latest.letter()));
    }

    private static int waiting(List<DeadLetter> letters) {
        return (int) letters.stream().filter(letter -> letter.status() == DeadLetter.Status.WAITING).count();
    }
}
