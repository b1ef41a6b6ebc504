package dev.payments.reconciliation.domain.projection;

import dev.payments.contracts.Money;


import java.util.Objects;

/** What an order was placed for, as {@code OrderCreated} tells it. */
public record OrderDetails(MemberId memberId, Money amount, String orderName) {

    public OrderDetails {
        Objects.requireNonNull(memberId, "member id");
        Objects.requireNonNull(amount, "amount");
    }
}
