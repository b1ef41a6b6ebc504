package dev.payments.order.config;

import dev.payments.order.application.ApplyPaymentOutcome;
import dev.payments.order.application.GetOrder;
import dev.payments.order.application.OrderEvents;
import dev.payments.order.application.OrderNotFoundException;
import dev.payments.order.application.Orders;
import dev.payments.order.application.PlaceOrder;
import dev.payments.order.domain.IllegalOrderTransitionException;
import dev.payments.order.domain.PaymentAmountMismatchException;
import dev.payments.outbox.inbox.InapplicableEvents;
import dev.payments.support.security.ApiAccess;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.context.annotation.Configuration;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;

@Configuration(proxyBeanMethods = false)
class OrderServiceConfiguration {

    /** Who may call what (docs/security.md); the shared resource-server chain of service-support enforces it. */
    @Bean
    ApiAccess apiAccess() {
        return ApiAccess.builder()
                .members(HttpMethod.POST, "/api/orders")
                .members(HttpMethod.GET, "/api/orders/{orderId}")
                .scope("orders:read", HttpMethod.GET, "/api/outbox/backlog")
                .build();
    }

    /** One clock for the use cases and the outbox, so tests can pin time. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    PlaceOrder placeOrder(Orders orders, OrderEvents events, TransactionTemplate transaction, Clock clock) {
        return new PlaceOrder(orders, events, transaction, clock);
    }

    @Bean
    GetOrder getOrder(Orders orders) {
        return new GetOrder(orders);
    }

    @Bean
    ApplyPaymentOutcome applyPaymentOutcome(Orders orders, OrderEvents events, TransactionTemplate transaction,
                                            Clock clock) {
        return new ApplyPaymentOutcome(orders, events, transaction, clock);
    }

    /**
     * A payment event these refuse can never be applied, however often it is retried: it goes to the dead-letter
     * topic at once for an operator (docs/decisions/consumer-errors.md), and the order's next events follow.
     */
    @Bean
    InapplicableEvents inapplicablePaymentEvents() {
        return InapplicableEvents.signalledBy(IllegalOrderTransitionException.class,
                PaymentAmountMismatchException.class, OrderNotFoundException.class);
    }
}
