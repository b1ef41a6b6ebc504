package dev.payments.payment.application;

import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.RefundId;

import java.util.Optional;

/** Idempotency keys, scoped to the member that sent them. */
public interface IdempotencyKeys {

    Optional<IdempotencyRecord> find(MemberId member, String key);

    /**
     * Claims the key inside the current transaction. A concurrent request holding it is waited for: if its
     * transaction commits the key is taken, if it rolls back or gives the key back the claim is ours.
     *
     * @return false if the key is taken (an earlier request, or a concurrent duplicate that got there first)
     */
    boolean claim(MemberId member, String key, String requestHash, PaymentId paymentId);

    /**
     * Claims the key for a refund of {@code paymentId}, as {@link #claim} does for a confirm.
     *
     * @return false if the key is taken
     */
    boolean claimRefund(MemberId member, String key, String requestHash, PaymentId paymentId, RefundId refundId);

    /** The refund a key was claimed for, with the fingerprint of its request; empty for a confirm's key. */
    Optional<RefundKey> findRefund(MemberId member, String key);

    record RefundKey(String requestHash, RefundId refundId) {
    }

    /** Gives a claimed key back inside the current transaction: the request was refused before it started a payment. */
    void release(MemberId member, String key);

    /** Stores the answer given for the key, in the transaction that decided it. */
    void complete(MemberId member, String key, PaymentReceipt receipt);

    /**
     * @param requestHash fingerprint of the request body the key was first used with
     * @param receipt     the stored answer; empty while the first request is still in flight
     */
    record IdempotencyRecord(String requestHash, PaymentId paymentId, Optional<PaymentReceipt> receipt) {
    }
}
