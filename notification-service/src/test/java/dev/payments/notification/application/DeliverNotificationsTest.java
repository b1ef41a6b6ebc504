package dev.payments.notification.application;

import dev.payments.notification.application.NotificationSender.Delivered;
import dev.payments.notification.application.NotificationSender.Rejected;
import dev.payments.notification.domain.Notification;
import dev.payments.notification.domain.NotificationKind;
import dev.payments.notification.domain.NotificationStatus;
import dev.payments.notification.domain.RetryPolicy;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static dev.payments.notification.domain.NotificationTestData.T0;
import static dev.payments.notification.domain.NotificationTestData.aNotification;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

class DeliverNotificationsTest {

    private static final RetryPolicy RETRY = new RetryPolicy(3, Duration.ofSeconds(5));

    private final InMemoryNotifications notifications = new InMemoryNotifications();
    private final MutableClock clock = new MutableClock(T0);
    private final List<Notification> sent = new ArrayList<>();

    @Test
    void sendsWhatIsDueAndMarksItSent() {
        Notification completed = store(aNotification().of(NotificationKind.PAYMENT_COMPLETED).pending());
        Notification receipt = store(aNotification().of(NotificationKind.RECEIPT).pending());

        int attempted = deliver(n -> {
            sent.add(n);
            return new Delivered();
        });

        assertThat(attempted).isEqualTo(2);
        assertThat(sent).containsExactlyInAnyOrder(completed, receipt);
        assertThat(completed.status()).isEqualTo(NotificationStatus.SENT);
        assertThat(receipt.status()).isEqualTo(NotificationStatus.SENT);
        assertThat(notifications.recorded).as("both results in one write").containsExactly(2);
        assertThat(deliver(n -> new Delivered())).as("nothing due any more").isZero();
    }

    @Test
    void aRejectionOrACrashingChannelIsRecordedAndRetriedNotThrown() {
        Notification rejected = store(aNotification().pending());
        Notification crashed = store(aNotification().pending());

        deliver(n -> {
            if (n == crashed) {
                throw new IllegalStateException("SMS gateway connection reset");
            }
            return new Rejected("number unreachable");
        });

        assertThat(rejected.status()).isEqualTo(NotificationStatus.FAILED);
        assertThat(rejected.lastError()).contains("number unreachable");
        assertThat(crashed.status()).isEqualTo(NotificationStatus.FAILED);
        assertThat(crashed.lastError()).hasValueSatisfying(e -> assertThat(e).contains("connection reset"));

        assertThat(deliver(n -> new Delivered())).as("not due before the backoff").isZero();
        clock.advance(Duration.ofSeconds(5));
        assertThat(deliver(n -> new Delivered())).isEqualTo(2);
        assertThat(rejected.status()).isEqualTo(NotificationStatus.SENT);
        assertThat(rejected.attempts()).isEqualTo(2);
    }

    /**
     * A channel that takes 60 ms a send: results are written once the first unwritten one is 100 ms old, not at the
     * end of the round, so a crash sends again only what a window and one send held.
     */
    @Test
    void aSlowChannelsResultsAreWrittenWithinTheRecordingWindowNotAtTheEndOfTheRound() {
        for (int i = 0; i < 5; i++) {
            store(aNotification().pending());
        }

        deliver(n -> {
            clock.advance(Duration.ofMillis(60));
            return new Delivered();
        });

        // results known at 60, 120, 180 | 240, 300: written at 180 (the first 120 ms old) and at the round's end
        assertThat(notifications.recorded).containsExactly(3, 2);
    }

    @Test
    void givesUpAfterTheLastAttempt() {
        Notification notification = store(aNotification().pending());

        for (int attempt = 0; attempt < 5; attempt++) {
            deliver(n -> new Rejected("down"));
            clock.advance(Duration.ofMinutes(1));
        }

        assertThat(notification.attempts()).isEqualTo(3);
        assertThat(notification.status()).isEqualTo(NotificationStatus.FAILED);
        assertThat(notification.isDeliverable()).isFalse();
    }

    private Notification store(Notification notification) {
        notifications.insertIfAbsent(notification);
        return notification;
    }

    private int deliver(NotificationSender sender) {
        return new DeliverNotifications(notifications, sender,
                new TransactionTemplate(mock(PlatformTransactionManager.class)), clock,
                new DeliverNotifications.Settings(10, Duration.ofSeconds(60), RETRY, Duration.ofMillis(100)))
                .deliverDue();
    }

    private static final class MutableClock extends Clock {

        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
