package dev.payments.outbox.relay;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DebeziumWatermarkTest {

    @Test
    void readsPostgresWalPositionsSoTheyCompareInWalOrder() {
        assertThat(DebeziumWatermark.parseLsn("0/190A5A8")).isEqualTo(0x190A5A8L);
        assertThat(DebeziumWatermark.parseLsn("16/B374D848")).isEqualTo((0x16L << 32) | 0xB374D848L);
        assertThat(DebeziumWatermark.parseLsn("1/0")).isGreaterThan(DebeziumWatermark.parseLsn("0/FFFFFFFF"));
    }
}
