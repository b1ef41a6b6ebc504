package dev.payments.outbox.relay;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SlotStatusTest {

    @Test
    void aSlotKeepingItsWalCanBeStreamed() {
        for (String walStatus : new String[] {"reserved", "extended"}) {
            SlotStatus status = SlotStatus.of(walStatus, 4096L, 123);
            assertThat(status.condition()).isEqualTo(SlotStatus.Condition.HEALTHY);
            assertThat(status.healthy()).isTrue();
            assertThat(status.retainedWalBytes()).isEqualTo(4096);
            assertThat(status.activePid()).isEqualTo(123);
        }
    }

    @Test
    void anUnreservedSlotIsStillStreamableButAtRisk() {
        SlotStatus status = SlotStatus.of("unreserved", 900_000_000L, null);

        assertThat(status.condition()).isEqualTo(SlotStatus.Condition.AT_RISK);
        assertThat(status.healthy()).isTrue();
    }

    @Test
    void anInvalidatedSlotIsLostAndRetainsNothingWorthReporting() {
        SlotStatus status = SlotStatus.of("lost", null, null);

        assertThat(status.condition()).isEqualTo(SlotStatus.Condition.LOST);
        assertThat(status.healthy()).isFalse();
        assertThat(status.exists()).isTrue();
        assertThat(status.retainedWalBytes()).isEqualTo(-1);
    }

    @Test
    void aMissingSlotNeitherExistsNorStreams() {
        assertThat(SlotStatus.MISSING.exists()).isFalse();
        assertThat(SlotStatus.MISSING.healthy()).isFalse();
    }
}
