package dev.payments.pgsim.ledger;

import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The billing keys the PG issued (Toss's automatic payments): a key stands for one customer's registered card, and
 * only that customer's key may be charged with it. Kept across ledger resets: a key is a credential, not a booking.
 */
public final class BillingKeys {

    /** One issued key. */
    public record BillingKey(String billingKey, String customerKey, Instant authenticatedAt) {
    }

    private final Map<String, BillingKey> issued = new ConcurrentHashMap<>();
    private final Clock clock;
    /** Null when the keys live in memory only. */
    private final LedgerJournal journal;

    public BillingKeys(Clock clock) {
        this(clock, null);
    }

    public BillingKeys(Clock clock, LedgerJournal journal) {
        this.clock = clock;
        this.journal = journal;
    }

    public BillingKey issue(String customerKey) {
        byte[] random = new byte[12];
        ThreadLocalRandom.current().nextBytes(random);
        BillingKey key = new BillingKey("bk_" + HexFormat.of().formatHex(random), customerKey, clock.instant());
        if (journal != null) {
            journal.billingKey(key);
        }
        return restore(key);
    }

    /** A key issued (or read back from the journal). */
    BillingKey restore(BillingKey key) {
        issued.put(key.billingKey(), key);
        return key;
    }

    /** The key, if it was issued to this customer. */
    public Optional<BillingKey> find(String billingKey, String customerKey) {
        return Optional.ofNullable(issued.get(billingKey)).filter(key -> key.customerKey().equals(customerKey));
    }

    /** The paymentKey the PG gives a charge of a billing key: one per orderId, so a retried charge names the same one. */
    public static String chargePaymentKey(String orderId) {
        return "bill_" + orderId;
    }
}
