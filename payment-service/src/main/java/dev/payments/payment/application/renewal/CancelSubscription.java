package dev.payments.payment.application.renewal;

import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.renewal.RenewalCharge;
import dev.payments.payment.domain.renewal.Subscription;
import dev.payments.payment.domain.renewal.SubscriptionId;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.Optional;

/**
 * A member ends their subscription (docs/renewals.md, "Cancel"): from the commit on no run plans or attempts one of its
 * periods, so dunning stops too. A period whose attempt is at the PG right now is left to settle — its payment may
 * hold money, and only the PG's answer says — and is stopped once it settled without a charge.
 */
public class CancelSubscription {

    private final Subscriptions subscriptions;
    private final RenewalCharges charges;
    private final TransactionTemplate transaction;

    public CancelSubscription(Subscriptions subscriptions, RenewalCharges charges, TransactionTemplate transaction) {
        this.subscriptions = subscriptions;
        this.charges = charges;
        this.transaction = transaction;
    }

    /** @return the cancelled subscription; empty if the member has none with this id (another member's included) */
    public Optional<Subscription> cancel(SubscriptionId id, MemberId member) {
        return transaction.execute(tx -> subscriptions.lock(id)
                .filter(subscription -> subscription.memberId().equals(member))
                .map(subscription -> {
                    Subscription canceled = subscription.canceled();
                    subscriptions.updateStatus(canceled);
                    for (RenewalCharge due : charges.lockDue(id)) {
                        if (due.stopForCancel()) {
                            charges.update(due);
                        }
                    }
                    return canceled;
                }));
    }
}
