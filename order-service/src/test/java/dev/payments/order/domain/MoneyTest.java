package dev.payments.order.domain;

import dev.payments.contracts.MoneyRuleContract;

/** This context's Money holds the house's one rule (MoneyRuleContract). */
class MoneyTest extends MoneyRuleContract<Money> {

    @Override
    protected Money money(long amount, String currency) {
        return new Money(amount, currency);
    }

    @Override
    protected long amountOf(Money money) {
        return money.amount();
    }

    @Override
    protected String currencyOf(Money money) {
        return money.currency();
    }

    @Override
    protected Class<? extends RuntimeException> refusal() {
        return InvalidOrderException.class;
    }
}
