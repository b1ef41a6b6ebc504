package dev.payments.reconciliation.config;

import dev.payments.reconciliation.application.projection.EventHistory;
import dev.payments.reconciliation.application.projection.OrderViews;
import dev.payments.reconciliation.application.projection.PaymentViews;
import dev.payments.reconciliation.application.projection.RefundViews;
import dev.payments.reconciliation.application.queries.ShowOrder;
import dev.payments.reconciliation.application.queries.ShowPayment;
import dev.payments.reconciliation.application.queries.SummarizeBooks;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The read API's use cases over the projection. */
@Configuration(proxyBeanMethods = false)
public class QueriesConfiguration {

    @Bean
    ShowPayment showPayment(PaymentViews payments, RefundViews refunds, EventHistory history) {
        return new ShowPayment(payments, refunds, history);
    }

    @Bean
    ShowOrder showOrder(OrderViews orders, PaymentViews payments, EventHistory history) {
        return new ShowOrder(orders, payments, history);
    }

    @Bean
    SummarizeBooks summarizeBooks(PaymentViews payments, OrderViews orders) {
        return new SummarizeBooks(payments, orders);
    }
}
