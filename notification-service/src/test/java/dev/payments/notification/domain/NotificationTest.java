package dev.payments.notification.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static dev.payments.notification.domain.NotificationTestData.T0;
import static dev.payments.notification.domain.NotificationTestData.aNotification;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every delivery state x every result: PENDING, FAILED with attempts left, FAILED given up, SENT. */
class NotificationTest {

    private static final RetryPolicy RETRY = new RetryPolicy(3, Duration.ofSeconds(5));
    private static final Instant NOW = T0.plusSeconds(100);

    @Test
    void aNewNotificationIsPendingAndDueAtOnce() {
        Notification notification = aNotification().pending();

        assertThat(notification.status()).isEqualTo(NotificationStatus.PENDING);
        assertThat(notification.attempts()).isZero();
        assertThat(notification.nextAttemptAt()).contains(T0);
        assertThat(notification.isDeliverable()).isTrue();
    }

    @Test
    void pendingToSent() {
        Notification notification = aNotification().pending();

        notification.markSent(NOW);

        assertThat(notification.status()).isEqualTo(NotificationStatus.SENT);
        assertThat(notification.attempts()).isEqualTo(1);
        assertThat(notification.sentAt()).contains(NOW);
        assertThat(notification.nextAttemptAt()).isEmpty();
        assertThat(notification.isDeliverable()).isFalse();
    }

    @Test
    void pendingToFailedIsRetriedAfterTheBackoff() {
        Notification notification = aNotification().pending();

        notification.markFailed("gateway timeout", RETRY, NOW);

        assertThat(notification.status()).isEqualTo(NotificationStatus.FAILED);
        assertThat(notification.attempts()).isEqualTo(1);
        assertThat(notification.lastError()).contains("gateway timeout");
        assertThat(notification.nextAttemptAt()).contains(NOW.plusSeconds(5));
        assertThat(notification.isDeliverable()).isTrue();
    }

    @Test
    void failedToSentOnALaterAttempt() {
        Notification notification = aNotification().failed(RETRY);

        notification.markSent(NOW);

        assertThat(notification.status()).isEqualTo(NotificationStatus.SENT);
        assertThat(notification.attempts()).isEqualTo(2);
        assertThat(notification.nextAttemptAt()).isEmpty();
    }

    @Test
    void failedAgainDoublesTheBackoffUntilTheAttemptsAreUsedUp() {
        Notification notification = aNotification().failed(RETRY);

        notification.markFailed("still down", RETRY, NOW);
        assertThat(notification.attempts()).isEqualTo(2);
        assertThat(notification.nextAttemptAt()).contains(NOW.plusSeconds(10));

        notification.markFailed("still down", RETRY, NOW);
        assertThat(notification.attempts()).isEqualTo(3);
        assertThat(notification.status()).isEqualTo(NotificationStatus.FAILED);
        assertThat(notification.nextAttemptAt()).as("given up").isEmpty();
        assertThat(notification.isDeliverable()).isFalse();
    }

    @Test
    void aSentNotificationTakesNoFurtherResult() {
        Notification sent = aNotification().sent();

        assertThatThrownBy(() -> sent.markSent(NOW)).isInstanceOf(IllegalNotificationTransitionException.class);
        assertThatThrownBy(() -> sent.markFailed("late", RETRY, NOW))
                .isInstanceOf(IllegalNotificationTransitionException.class);
        assertThat(sent.status()).isEqualTo(NotificationStatus.SENT);
        assertThat(sent.attempts()).isEqualTo(1);
    }

    @Test
    void aGivenUpNotificationTakesNoFurtherResult() {
        Notification givenUp = aNotification().givenUp(RETRY);

        assertThatThrownBy(() -> givenUp.markSent(NOW)).isInstanceOf(IllegalNotificationTransitionException.class);
        assertThatThrownBy(() -> givenUp.markFailed("again", RETRY, NOW))
                .isInstanceOf(IllegalNotificationTransitionException.class);
        assertThat(givenUp.attempts()).isEqualTo(3);
    }

    @Test
    void aSingleAttemptPolicyGivesUpAtOnce() {
        Notification notification = aNotification().pending();

        notification.markFailed("refused", new RetryPolicy(1, Duration.ZERO), NOW);

        assertThat(notification.isDeliverable()).isFalse();
    }

    @Test
    void retryPolicyRejectsNonsense() {
        assertThatThrownBy(() -> new RetryPolicy(0, Duration.ofSeconds(1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryPolicy(3, Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}
