package dev.payments.pgsim.api;

import dev.payments.pgsim.http.Reply;

/**
 * An answer and whether the PG produced it by doing work now ({@code fresh}); only fresh 2xx
 * answers can be lost by the drop fault — a replay or a validation error never is. A held outcome
 * has no answer at all: the connection is kept open until the client gives up, then
 * {@code afterClientGaveUp} runs (the late booking).
 */
record Outcome(Reply reply, boolean fresh, Runnable afterClientGaveUp) {

    static Outcome fresh(Reply reply) {
        return new Outcome(reply, true, null);
    }

    static Outcome plain(Reply reply) {
        return new Outcome(reply, false, null);
    }

    static Outcome held(Runnable afterClientGaveUp) {
        return new Outcome(null, false, afterClientGaveUp);
    }

    boolean isHeld() {
        return afterClientGaveUp != null;
    }
}
