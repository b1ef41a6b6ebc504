package dev.payments.drills.scenario;

import dev.payments.drills.analysis.Observations;
import dev.payments.drills.load.Attempt;
import dev.payments.drills.load.PreparedOrder;
import dev.payments.drills.load.Recorder;
import dev.payments.drills.observe.Books;
import dev.payments.drills.observe.Clock;
import dev.payments.drills.observe.ConsumerLag;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * From a recovery mark on, polls every two seconds until none of the payments sent before it is left UNKNOWN or
 * REQUESTED (nor its order PAYMENT_PENDING), then every 250 ms until every consumer group has consumed what had been
 * published by then. Final orders are not read again.
 */
final class RecoveryWatch {

    /** Consumption takes about a second under the drills' load: a finer poll than the books' 2 s. */
    private static final Duration CATCH_UP_POLL = Duration.ofMillis(250);

    private final Books books;
    private final Recorder recorder;
    private final ConsumerLag lag;
    private final Clock clock;
    private final Set<String> settled = new HashSet<>();
    private volatile Integer unsettledAtStart;
    private volatile Double allSettledAt;
    private volatile Double caughtUpAt;
    private Map<String, Map<TopicPartition, Long>> published;

    RecoveryWatch(Books books, Recorder recorder, ConsumerLag lag, Clock clock) {
        this.books = books;
        this.recorder = recorder;
        this.lag = lag;
        this.clock = clock;
    }

    /** Polls until both conditions hold (or one could not be observed) or {@code deadline} passes. */
    void watch(List<PreparedOrder> sentBeforeRecovery, Duration deadline) {
        long until = System.nanoTime() + deadline.toNanos();
        while (System.nanoTime() < until) {
            if (allSettledAt == null) {
                int unsettled = poll(sentBeforeRecovery);
                if (unsettledAtStart == null) {
                    unsettledAtStart = unsettled;
                }
                if (unsettled == 0) {
                    allSettledAt = clock.seconds();
                }
            }
            if (allSettledAt != null && caughtUpAt == null) {
                // What the books agree on has been published; the load goes on, so lag never reaches 0 before it
                // stops. Caught up = each group has consumed past what the topics held when the books agreed.
                if (published == null) {
                    published = lag.mark();
                }
                if (published != null && Boolean.TRUE.equals(lag.consumedUpTo(published))) {
                    caughtUpAt = clock.seconds();
                }
            }
            if (allSettledAt != null && caughtUpAt != null) {
                return;
            }
            LockSupport.parkNanos(allSettledAt == null ? Duration.ofSeconds(2).toNanos() : CATCH_UP_POLL.toNanos());
        }
    }

    /** What was seen so far; {@link Observations.Recovery#NOT_WATCHED} values until the first poll. */
    Observations.Recovery result() {
        return new Observations.Recovery(unsettledAtStart, allSettledAt, caughtUpAt);
    }

    private int poll(List<PreparedOrder> watched) {
        Map<String, String> paymentIds = paymentIds(recorder.attempts());
        List<PreparedOrder> pending = watched.stream().filter(o -> !settled.contains(o.orderId())).toList();
        Map<String, Books.OrderState> states;
        try {
            states = books.states(pending, paymentIds);
        } catch (RuntimeException e) {
            return pending.size();   // a part of the stack is still down: nothing counts as settled yet
        }
        int unsettled = 0;
        for (Books.OrderState s : states.values()) {
            boolean unreadable = s.orderStatus() == null || "UNREADABLE".equals(s.paymentStatus());
            if (s.unsettled() || s.orderBehind() || unreadable) {
                unsettled++;
            } else {
                settled.add(s.orderId());
            }
        }
        return unsettled;
    }

    static Map<String, String> paymentIds(List<Attempt> attempts) {
        Map<String, String> ids = new HashMap<>();
        for (Attempt a : attempts) {
            if (a.paymentId() != null) {
                ids.put(a.order().orderId(), a.paymentId());
            }
        }
        return ids;
    }
}
