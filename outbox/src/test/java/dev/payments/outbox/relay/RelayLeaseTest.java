package dev.payments.outbox.relay;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class RelayLeaseTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(15);

    @Test
    void theHolderStopsPublishingBeforeTheServerCanFreeTheLock() {
        // The server frees the lock TIMEOUT after the end of the holder's last statement; the holder counts from that
        // statement's start. Whatever the renewal took, the holder's deadline comes first, with room to stop the engine.
        assertThat(RelayLease.validity(TIMEOUT)).isEqualTo(Duration.ofSeconds(10)).isLessThan(TIMEOUT);
    }

    @Test
    void aHungStatementFailsBeforeTheHolderWouldHaveToStop() {
        Duration socketTimeout = RelayLease.socketTimeout(TIMEOUT);

        assertThat(socketTimeout).isEqualTo(Duration.ofSeconds(5));
        // A renewal started just before its interval elapsed and then hung still fails while the lease is valid.
        assertThat(TIMEOUT.dividedBy(5).plus(socketTimeout)).isLessThan(RelayLease.validity(TIMEOUT));
    }

    @Test
    void theLockIsNamedAfterTheSlotSoEachServiceHasItsOwn() {
        assertThat(RelayLease.lockName("outbox_payment_service")).isEqualTo("outbox-relay:outbox_payment_service");
        assertThat(RelayLease.lockName("outbox_order_service")).isNotEqualTo(RelayLease.lockName("outbox_payment_service"));
    }
}
