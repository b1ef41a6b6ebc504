package dev.payments.pgsim.ledger;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The PG's books, in memory, and in a {@link LedgerJournal} when one is given (the local stack gives one, so the
 * books outlive a restart as its databases do). Every operation takes one lock: each is a few map look-ups, so one
 * lock costs nothing at simulator rates and makes "never approve twice for one order" and
 * "the listing is in time order" trivially true.
 */
public final class Ledger implements LedgerView {

    private final Clock clock;
    /** Distinguishes transaction keys of different simulator runs that a test may persist. */
    private final String keyPrefix = "tx_" + UUID.randomUUID().toString().substring(0, 8) + "_";

    private final Map<String, Payment> byKey = new LinkedHashMap<>();
    private final Map<String, List<String>> keysByOrder = new HashMap<>();
    private final List<Transaction> transactions = new ArrayList<>();
    private final Map<String, Integer> transactionIndex = new HashMap<>();
    /** Payments with a cancel being processed now (not persisted: a restart ends every request). */
    private final Map<String, String> cancelling = new HashMap<>();
    /** Never reset, so keys stay unique across ledger resets within one run. */
    private long transactionSequence;
    private Instant lastTransactionAt = Instant.EPOCH;

    /** Null when the books live in memory only. */
    private final LedgerJournal journal;

    public Ledger(Clock clock) {
        this(clock, null);
    }

    /** Books that write every change to {@code journal}; replay it first ({@link LedgerJournal#replayInto}). */
    public Ledger(Clock clock, LedgerJournal journal) {
        this.clock = clock;
        this.journal = journal;
    }

    /**
     * A confirm for an unknown paymentKey is accepted: the simulator has no checkout session, so every paymentKey a
     * confirm names counts as one its payment window issued.
     */
    public synchronized ConfirmStart beginConfirm(String paymentKey, String orderId, long amount) {
        Payment existing = byKey.get(paymentKey);
        if (existing != null && !existing.orderId().equals(orderId)) {
            return refused(ConfirmStart.Refusal.NOT_MATCHES_ORDER_ID, "paymentKey belongs to another orderId");
        }
        if (existing != null) {
            return refused(ConfirmStart.Refusal.ALREADY_PROCESSED_PAYMENT, "the payment is already " + existing.status());
        }
        Optional<Payment> active = paymentsOf(orderId).stream()
                .filter(p -> p.movedMoney() || p.status() == PaymentStatus.IN_PROGRESS)
                .findFirst();
        if (active.isPresent()) {
            return refused(ConfirmStart.Refusal.ALREADY_PROCESSED_PAYMENT,
                    "order " + orderId + " already has payment " + active.get().paymentKey() + " " + active.get().status());
        }
        return new ConfirmStart.Started(store(Payment.inProgress(paymentKey, orderId, amount, clock.instant())));
    }

    /** Books the approval. Empty if the payment is no longer IN_PROGRESS (the ledger was reset meanwhile). */
    public synchronized Optional<Payment> approve(String paymentKey) {
        Payment payment = byKey.get(paymentKey);
        if (payment == null || payment.status() != PaymentStatus.IN_PROGRESS) {
            return Optional.empty();
        }
        Transaction approval = book(payment, TransactionType.APPROVE, payment.totalAmount());
        return Optional.of(store(payment.approve(approval.transactionKey(), approval.transactedAt())));
    }

    /** Records a decline. Empty if the payment is no longer IN_PROGRESS (the ledger was reset meanwhile). */
    public synchronized Optional<Payment> abort(String paymentKey, DeclineReason reason) {
        Payment payment = byKey.get(paymentKey);
        if (payment == null || payment.status() != PaymentStatus.IN_PROGRESS) {
            return Optional.empty();
        }
        return Optional.of(store(payment.abort(reason)));
    }

    /** A full cancel without an Idempotency-Key. */
    public synchronized CancelResult cancel(String paymentKey, String reason) {
        return cancel(paymentKey, reason, null, null);
    }

    /**
     * Cancels {@code amount} of the payment, or everything left when it is null (Toss's {@code cancelAmount} absent).
     * A key already on the books answers its cancel again and books nothing.
     */
    public synchronized CancelResult cancel(String paymentKey, String reason, Long amount, String idempotencyKey) {
        Payment payment = byKey.get(paymentKey);
        if (payment == null) {
            return new CancelResult.NotFound(paymentKey);
        }
        Optional<Cancel> earlier = payment.cancelWithKey(idempotencyKey);
        if (earlier.isPresent()) {
            return amount == null || amount == earlier.get().cancelAmount()
                    ? new CancelResult.AlreadyCanceled(payment) : new CancelResult.KeyReused(payment);
        }
        if (payment.status() == PaymentStatus.CANCELED) {
            return amount == null ? new CancelResult.AlreadyCanceled(payment) : new CancelResult.NothingLeft(payment);
        }
        if (!payment.cancelable()) {
            return new CancelResult.NotCancelable(payment);
        }
        long cancelAmount = amount == null ? payment.balanceAmount() : amount;
        if (cancelAmount <= 0 || cancelAmount > payment.balanceAmount()) {
            return new CancelResult.AmountNotCancelable(payment, cancelAmount);
        }
        Transaction cancel = book(payment, TransactionType.CANCEL, cancelAmount);
        return new CancelResult.Canceled(store(payment.cancel(cancel.transactionKey(), reason, cancelAmount, idempotencyKey,
                cancel.transactedAt())));
    }

    /**
     * Marks a cancel of the payment as being processed. While one is, another cancel of it is refused (Toss answers
     * FORBIDDEN_CONSECUTIVE_REQUEST: only the first of two cancels of one payment at once is processed).
     *
     * @return empty when this cancel may go on; else the Idempotency-Key of the one being processed ("" for none)
     */
    public synchronized Optional<String> beginCancel(String paymentKey, String idempotencyKey) {
        String busy = cancelling.putIfAbsent(paymentKey, idempotencyKey == null ? "" : idempotencyKey);
        return Optional.ofNullable(busy);
    }

    public synchronized void endCancel(String paymentKey) {
        cancelling.remove(paymentKey);
    }

    /** Forgets every payment and transaction (for tests); transaction keys keep counting. */
    public synchronized void reset() {
        if (journal != null) {
            journal.reset();
        }
        restoreReset();
    }

    /** A reset read back from the journal. */
    synchronized void restoreReset() {
        byKey.clear();
        keysByOrder.clear();
        transactions.clear();
        transactionIndex.clear();
    }

    @Override
    public synchronized Optional<Payment> payment(String paymentKey) {
        return Optional.ofNullable(byKey.get(paymentKey));
    }

    @Override
    public synchronized Optional<Payment> paymentForOrder(String orderId) {
        List<Payment> attempts = paymentsOf(orderId);
        return attempts.stream().filter(Payment::movedMoney).findFirst()
                .or(() -> attempts.stream().max(Comparator.comparing(Payment::requestedAt)));
    }

    @Override
    public synchronized List<Payment> payments() {
        return List.copyOf(byKey.values());
    }

    @Override
    public synchronized List<Transaction> transactions() {
        return List.copyOf(transactions);
    }

    /**
     * Transactions with {@code from <= transactedAt < to}, after the cursor, at most {@code limit}.
     * Booking order equals time order (see {@link #book}), so a cursor is simply a position.
     */
    @Override
    public synchronized TransactionPage transactions(Instant from, Instant to, String startingAfter, int limit) {
        int start = 0;
        if (startingAfter != null) {
            Integer index = transactionIndex.get(startingAfter);
            if (index == null) {
                throw new UnknownCursorException(startingAfter);
            }
            start = index + 1;
        }
        List<Transaction> page = new ArrayList<>();
        boolean hasNext = false;
        for (int i = start; i < transactions.size(); i++) {
            Transaction t = transactions.get(i);
            if (t.transactedAt().isBefore(from) || !t.transactedAt().isBefore(to)) {
                continue;
            }
            if (page.size() == limit) {
                hasNext = true;
                break;
            }
            page.add(t);
        }
        String cursor = hasNext ? page.get(page.size() - 1).transactionKey() : null;
        return new TransactionPage(page, hasNext, cursor);
    }

    private Transaction book(Payment payment, TransactionType type, long amount) {
        // Never let the clock go backwards on the books, so time order and booking order agree.
        Instant now = clock.instant();
        Instant at = now.isBefore(lastTransactionAt) ? lastTransactionAt : now;
        lastTransactionAt = at;
        String key = keyPrefix + String.format("%010d", ++transactionSequence);
        Transaction transaction = new Transaction(key, payment.paymentKey(), payment.orderId(), type, amount, at);
        if (journal != null) {
            journal.transaction(transaction);
        }
        return restore(transaction);
    }

    /** A transaction booked (or read back from the journal); the books' clock never goes back before it. */
    synchronized Transaction restore(Transaction transaction) {
        transactionIndex.put(transaction.transactionKey(), transactions.size());
        transactions.add(transaction);
        if (transaction.transactedAt().isAfter(lastTransactionAt)) {
            lastTransactionAt = transaction.transactedAt();
        }
        return transaction;
    }

    private Payment store(Payment payment) {
        if (journal != null) {
            journal.payment(payment);
        }
        return restore(payment);
    }

    /** A payment's latest snapshot, stored (or read back from the journal). */
    synchronized Payment restore(Payment payment) {
        if (byKey.put(payment.paymentKey(), payment) == null) {
            keysByOrder.computeIfAbsent(payment.orderId(), k -> new ArrayList<>()).add(payment.paymentKey());
        }
        return payment;
    }

    private List<Payment> paymentsOf(String orderId) {
        return keysByOrder.getOrDefault(orderId, List.of()).stream().map(byKey::get).toList();
    }

    private static ConfirmStart refused(ConfirmStart.Refusal refusal, String message) {
        return new ConfirmStart.Refused(refusal, message);
    }
}
