package dev.payments.notification.application;

import dev.payments.contracts.EventEnvelope;
import dev.payments.contracts.EventJson;
import dev.payments.contracts.EventType;
import dev.payments.contracts.GoldenEvents;
import dev.payments.notification.domain.Notification;
import dev.payments.notification.domain.NotificationKind;
import dev.payments.notification.domain.NotificationStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;

/** The consumer side of the contract: each golden payment event, parsed as the listener parses it. */
class RecordPaymentNotificationsTest {

    private final InMemoryNotifications notifications = new InMemoryNotifications();
    private final RecordPaymentNotifications record = new RecordPaymentNotifications(notifications,
            new TransactionTemplate(mock(PlatformTransactionManager.class)), Clock.fixed(Instant.parse("2026-11-29T08:00:00Z"), ZoneOffset.UTC));

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "PAYMENT_APPROVED,  PAYMENT_COMPLETED RECEIPT",
            "PAYMENT_DECLINED,  PAYMENT_FAILED",
            "PAYMENT_FAILED,    PAYMENT_FAILED",
            "PAYMENT_CANCELED,  PAYMENT_CANCELED",
            "PAYMENT_REQUESTED, ''",
            "PAYMENT_UNKNOWN,   ''",
    })
    void eachGoldenPaymentEventEarnsItsNotifications(EventType type, String kinds) {
        EventEnvelope golden = EventJson.read(GoldenEvents.json(type));

        List<Notification> stored = record.record(golden.eventId(), golden.event());

        List<NotificationKind> expected = kinds.isBlank() ? List.of()
                : Arrays.stream(kinds.split(" ")).map(NotificationKind::valueOf).toList();
        assertThat(stored).extracting(Notification::kind).containsExactlyElementsOf(expected);
        assertThat(stored).allSatisfy(n -> {
            assertThat(n.status()).isEqualTo(NotificationStatus.PENDING);
            assertThat(n.eventId()).isEqualTo(golden.eventId());
            assertThat(n.orderId().value()).isEqualTo(GoldenEvents.ORDER_ID);
            assertThat(n.paymentId().value()).isEqualTo(GoldenEvents.PAYMENT_ID);
            assertThat(n.memberId().value()).isEqualTo(GoldenEvents.MEMBER_ID);
            assertThat(n.money().amount()).isEqualTo(GoldenEvents.AMOUNT);
            assertThat(n.money().currency()).isEqualTo(GoldenEvents.CURRENCY);
        });
    }

    @Test
    void theSameEventTwiceIsStoredOnce() {
        EventEnvelope golden = EventJson.read(GoldenEvents.json(EventType.PAYMENT_APPROVED));

        record.record(golden.eventId(), golden.event());
        List<Notification> second = record.record(golden.eventId(), golden.event());

        assertThat(second).isEmpty();
        assertThat(notifications.rows).hasSize(2);
    }

    @Test
    void anOrderEventIsNotAPaymentEvent() {
        EventEnvelope orderPaid = EventJson.read(GoldenEvents.json(EventType.ORDER_PAID));

        assertThatThrownBy(() -> record.record(orderPaid.eventId(), orderPaid.event()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
