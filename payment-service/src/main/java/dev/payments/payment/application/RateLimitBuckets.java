package dev.payments.payment.application;

/** Where the members' allowances are kept, as far as keeping it small goes. */
public interface RateLimitBuckets {

    /**
     * Forgets up to {@code atMost} allowances that are full again (a member idle for a minute): a fresh one is the
     * same, and the store stays as small as the set of members seen lately.
     *
     * @return how many were forgotten; fewer than {@code atMost} means none is left
     */
    int forgetRested(int atMost);
}
