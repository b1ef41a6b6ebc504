package dev.payments.payment.application;

import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.PaymentId;

import java.util.Optional;

/** Idempotency keys, scoped to the member that sent them. */
public interface IdempotencyKeys {

    Optional<IdempotencyRecord> find(MemberId member, String key);

    /**
     * Claims the key inside the current transaction.
     *
     * @throws IdempotencyKeyTakenException if another request claimed it first (a concurrent duplicate)
     */
    void claim(MemberId member, String key, String requestHash, PaymentId paymentId);

    /** Stores the answer given for the key, in the transaction that decided it. */
    void complete(MemberId member, String key, PaymentReceipt receipt);

    /**
     * @param requestHash fingerprint of the request body the key was first used with
     * @param receipt     the stored answer; empty while the first request is still in flight
     */
    record IdempotencyRecord(String requestHash, PaymentId paymentId, Optional<PaymentReceipt> receipt) {
    }
}
