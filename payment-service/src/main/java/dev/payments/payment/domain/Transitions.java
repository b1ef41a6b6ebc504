package dev.payments.payment.domain;

import java.util.Map;
import java.util.Set;

/** An aggregate's transition table: which states may follow each state. Every move of a payment or a refund is checked here. */
record Transitions<S extends Enum<S>>(String aggregate, Map<S, Set<S>> allowed) {

    boolean allows(S from, S to) {
        return allowed.get(from).contains(to);
    }

    /** @throws IllegalTransitionException unless {@code to} may follow {@code from} */
    S check(Object id, S from, S to) {
        if (!allows(from, to)) {
            throw refused(id, from, to);
        }
        return to;
    }

    IllegalTransitionException refused(Object id, S from, S to) {
        return new IllegalTransitionException(aggregate, id, from, to);
    }
}
