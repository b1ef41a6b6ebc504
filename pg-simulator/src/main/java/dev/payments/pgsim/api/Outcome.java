package dev.payments.pgsim.api;

import dev.payments.pgsim.http.Reply;

/**
 * An answer and whether the PG produced it by doing work now ({@code fresh}); only fresh 2xx
 * answers can be lost by the drop fault — a replay or a validation error never is.
 */
record Outcome(Reply reply, boolean fresh) {

    static Outcome fresh(Reply reply) {
        return new Outcome(reply, true);
    }

    static Outcome plain(Reply reply) {
        return new Outcome(reply, false);
    }
}
