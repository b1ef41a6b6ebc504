package dev.payments.order.domain;

import dev.payments.contracts.MoneyRuleContract;

/** This context's Money holds the house's one rule (MoneyRuleContract). */
class MoneyTest extends MoneyRuleContract<Money> {

    MoneyTest() {
        super(Money::new, Money::amount, Money::currency, InvalidOrderException.class);
    }
}
