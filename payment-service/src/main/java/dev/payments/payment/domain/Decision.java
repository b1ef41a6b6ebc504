package dev.payments.payment.domain;

import dev.payments.contracts.PaymentEvent;

import java.util.Optional;

/** What a payment's or a refund's verb decided: the action, and the one event it wrote if it changed the aggregate. */
public record Decision<A extends Enum<A>>(A action, Optional<PaymentEvent> event) {

    static <A extends Enum<A>> Decision<A> of(A action) {
        return new Decision<>(action, Optional.empty());
    }

    static <A extends Enum<A>> Decision<A> wrote(A action, PaymentEvent event) {
        return new Decision<>(action, Optional.of(event));
    }
}
