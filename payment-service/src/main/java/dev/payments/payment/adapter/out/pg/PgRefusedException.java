package dev.payments.payment.adapter.out.pg;

import dev.payments.payment.domain.PgRefusal;

/**
 * A confirm the PG refused with a 4xx that is not a card decline (our credentials, 409 in progress, 429...). Never
 * thrown: it is what the approval breaker records as the failure, so its metrics and logs name the refusal.
 */
public final class PgRefusedException extends RuntimeException {

    public PgRefusedException(PgRefusal refusal) {
        super("PG refused the confirm: " + refusal.httpStatus() + " " + refusal.code() + " " + refusal.message(), null,
                false, false);
    }
}
