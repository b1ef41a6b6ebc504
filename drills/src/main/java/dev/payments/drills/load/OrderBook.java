package dev.payments.drills.load;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;

/**
 * The drill's orders, placed before the load. {@code members} accounts share them round-robin (000 used 30), so the
 * per-member rate limit is exercised as in the report unless a scenario raises it.
 */
public final class OrderBook {

    private final List<PreparedOrder> orders = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger next = new AtomicInteger();
    private final String runId;
    private volatile boolean exhausted;

    public OrderBook(String runId) {
        this.runId = runId;
    }

    /**
     * Places {@code count} more orders with {@code threads} in parallel, shared round-robin by {@code members}
     * accounts (by the order's index in the book); returns how many were refused.
     */
    public int place(ApprovalClient client, int count, int members, long amount, int threads, IntConsumer progress) {
        return place(client, count, index -> "member-" + runId + "-" + (index % members), amount, threads, progress);
    }

    /**
     * Places {@code count} more orders, each for a member account of its own in {@code group}, apart from the shared
     * ones: approvals that must not spend the load's per-member allowance (a warm-up).
     */
    public int placeOnePerMember(ApprovalClient client, int count, String group, long amount, int threads,
                                 IntConsumer progress) {
        return place(client, count, index -> "member-" + runId + "-" + group + "-" + index, amount, threads, progress);
    }

    private int place(ApprovalClient client, int count, IntFunction<String> member, long amount, int threads,
                      IntConsumer progress) {
        int base = orders.size();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger placed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, LoadGenerator.daemon("orders"));
        List<PreparedOrder> batch = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < count; i++) {
            int index = base + i;
            pool.execute(() -> {
                PreparedOrder order = client.placeOrder(index, member.apply(index), amount);
                if (order == null) {
                    refused.incrementAndGet();
                } else {
                    batch.add(order);
                }
                progress.accept(placed.incrementAndGet());
            });
        }
        LoadGenerator.shutdown(pool, java.time.Duration.ofMinutes(10));
        batch.sort(java.util.Comparator.comparingInt(PreparedOrder::index));
        orders.addAll(batch);
        return refused.get();
    }

    public List<PreparedOrder> all() {
        return List.copyOf(orders);
    }

    /** The next {@code n} unused orders (fewer if they run out). */
    public List<PreparedOrder> take(int n) {
        List<PreparedOrder> taken = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            PreparedOrder order = next();
            if (order == null) {
                break;
            }
            taken.add(order);
        }
        return taken;
    }

    /** The next unused order, or null. */
    public PreparedOrder next() {
        if (exhausted) {
            return null;
        }
        int i = next.getAndIncrement();
        return i < orders.size() ? orders.get(i) : null;
    }

    /**
     * Shuffles the orders not handed out yet, so orders placed in batches (a few members' extra orders) arrive mixed
     * into the load rather than all at its end.
     */
    public synchronized void shuffleUnused(java.util.Random random) {
        synchronized (orders) {
            int from = Math.min(next.get(), orders.size());
            Collections.shuffle(orders.subList(from, orders.size()), random);
        }
    }

    /** From now on there are no more orders: open-ended loads end. */
    public void exhaust() {
        exhausted = true;
    }

    public java.util.Iterator<PreparedOrder> iterator() {
        return new java.util.Iterator<>() {
            private PreparedOrder peeked;

            @Override
            public boolean hasNext() {
                if (peeked == null) {
                    peeked = OrderBook.this.next();
                }
                return peeked != null;
            }

            @Override
            public PreparedOrder next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                PreparedOrder order = peeked;
                peeked = null;
                return order;
            }
        };
    }

    /** Orders actually sent (taken), for the ledger. */
    public List<PreparedOrder> used() {
        int n = Math.min(next.get(), orders.size());
        return List.copyOf(orders.subList(0, n));
    }
}
