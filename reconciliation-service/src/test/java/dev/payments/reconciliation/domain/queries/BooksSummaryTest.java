package dev.payments.reconciliation.domain.queries;

import dev.payments.reconciliation.domain.projection.OrderStatus;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class BooksSummaryTest {

    @Test
    void approvalsCountEveryPaymentThePgTookMoneyForEvenIfItWasReturned() {
        BooksSummary summary = new BooksSummary(
                Map.of(PaymentStatus.APPROVED, 5L, PaymentStatus.CANCELED, 2L, PaymentStatus.UNKNOWN, 1L,
                        PaymentStatus.REQUESTED, 3L, PaymentStatus.DECLINED, 4L),
                Map.of(OrderStatus.PAID, 4L, OrderStatus.PARTIALLY_REFUNDED, 1L, OrderStatus.REFUNDED, 1L,
                        OrderStatus.CANCELED, 1L), 0);

        assertThat(summary.approvals()).isEqualTo(7);
        assertThat(summary.cancellations()).isEqualTo(2);
        assertThat(summary.paidOrders()).as("PAID and PARTIALLY_REFUNDED hold a payment").isEqualTo(5);
        assertThat(summary.unknown()).isEqualTo(1);
        assertThat(summary.unresolved()).isEqualTo(4);
        assertThat(summary.totalPayments()).isEqualTo(15);
        assertThat(summary.totalOrders()).isEqualTo(7);
    }

    @Test
    void everyStatusIsListedEvenWithNothingInIt() {
        BooksSummary empty = new BooksSummary(Map.of(), Map.of(), 0);

        assertThat(empty.payments()).containsOnlyKeys(PaymentStatus.values()).allSatisfy((s, n) -> assertThat(n).isZero());
        assertThat(empty.orders()).containsOnlyKeys(OrderStatus.values());
        assertThat(empty.approvals()).isZero();
    }
}
