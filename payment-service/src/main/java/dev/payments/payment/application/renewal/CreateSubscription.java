package dev.payments.payment.application.renewal;

import dev.payments.contracts.Money;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.renewal.Subscription;
import dev.payments.payment.domain.renewal.SubscriptionId;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Optional;

/** A member subscribes with a billing key the PG issued to them; the first period is charged by the next run. */
public class CreateSubscription {

    private final Subscriptions subscriptions;
    private final TransactionTemplate transaction;
    private final Clock clock;
    private final ZoneId zone;

    public CreateSubscription(Subscriptions subscriptions, TransactionTemplate transaction, Clock clock, ZoneId zone) {
        this.subscriptions = subscriptions;
        this.transaction = transaction;
        this.clock = clock;
        this.zone = zone;
    }

    /**
     * @param firstPeriod the first day to be charged; empty: today in the renewal zone (charged by the next run)
     */
    public record Command(MemberId memberId, String plan, Money money, String billingKey,
                          Optional<LocalDate> firstPeriod) {
    }

    public Subscription create(Command command) {
        LocalDate today = LocalDate.ofInstant(clock.instant(), zone);
        Subscription subscription = Subscription.start(SubscriptionId.newId(), command.memberId(), command.plan(),
                command.money(), command.billingKey(), command.firstPeriod().orElse(today), clock.instant());
        transaction.executeWithoutResult(tx -> subscriptions.insert(subscription));
        return subscription;
    }
}
