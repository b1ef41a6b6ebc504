package dev.payments.reconciliation.domain.incidents;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every legal and every illegal move of an incident's state. */
class IncidentTest {

    private static final Instant T0 = Instant.parse("2026-11-29T08:00:00Z");
    private static final PaymentId PAYMENT = new PaymentId(UUID.randomUUID());

    private final Incident open = Incident.open(IncidentReason.COMPENSATION_FAILED, PAYMENT,
            new OrderId(UUID.randomUUID()), new Money(15_000, "KRW"), null, "cancel refused 5 times", 5, T0);

    @Test
    void aNewIncidentIsOpenAndAboutItsPayment() {
        assertThat(open.state()).isEqualTo(IncidentState.OPEN);
        assertThat(open.subject()).isEqualTo("payment:" + PAYMENT);
        assertThat(open.openedAt()).isEqualTo(T0);
        assertThat(open.acknowledgedBy()).isNull();
        assertThat(open.resolvedBy()).isNull();
    }

    @Test
    void openToAcknowledgedRecordsWhoAndWhen() {
        Incident acknowledged = open.acknowledge("alice", "calling the PG", T0.plusSeconds(60));
        assertThat(acknowledged.state()).isEqualTo(IncidentState.ACKNOWLEDGED);
        assertThat(acknowledged.acknowledgedBy()).isEqualTo("alice");
        assertThat(acknowledged.acknowledgedAt()).isEqualTo(T0.plusSeconds(60));
        assertThat(acknowledged.acknowledgeNote()).isEqualTo("calling the PG");
        assertThat(acknowledged.updatedAt()).isEqualTo(T0.plusSeconds(60));
    }

    @Test
    void acknowledgedToResolvedKeepsWhoAcknowledged() {
        Incident resolved = open.acknowledge("alice", null, T0.plusSeconds(60))
                .resolve("bob", ResolutionOutcome.REFUNDED_AT_PG, "cancelled in the PG console", T0.plusSeconds(120));
        assertThat(resolved.state()).isEqualTo(IncidentState.RESOLVED);
        assertThat(resolved.acknowledgedBy()).isEqualTo("alice");
        assertThat(resolved.resolvedBy()).isEqualTo("bob");
        assertThat(resolved.resolvedAt()).isEqualTo(T0.plusSeconds(120));
        assertThat(resolved.resolution()).isEqualTo("cancelled in the PG console");
    }

    @Test
    void openToResolvedDirectly() {
        Incident resolved = open.resolve(Incident.SYSTEM, ResolutionOutcome.SETTLED_AUTOMATICALLY, "Settled automatically", T0.plusSeconds(5));
        assertThat(resolved.state()).isEqualTo(IncidentState.RESOLVED);
        assertThat(resolved.acknowledgedBy()).isNull();
    }

    @Test
    void acknowledgingTwiceIsIllegal() {
        Incident acknowledged = open.acknowledge("alice", null, T0);
        assertThatThrownBy(() -> acknowledged.acknowledge("bob", null, T0))
                .isInstanceOfSatisfying(IllegalIncidentTransitionException.class, e -> {
                    assertThat(e.from()).isEqualTo(IncidentState.ACKNOWLEDGED);
                    assertThat(e.to()).isEqualTo(IncidentState.ACKNOWLEDGED);
                });
    }

    @Test
    void aResolvedIncidentCannotBeAcknowledgedResolvedOrTouchedBySettlerAttempts() {
        Incident resolved = open.resolve("alice", ResolutionOutcome.REFUNDED_AT_PG, "refunded by bank transfer", T0);
        assertThatThrownBy(() -> resolved.acknowledge("bob", null, T0))
                .isInstanceOf(IllegalIncidentTransitionException.class);
        assertThatThrownBy(() -> resolved.resolve("bob", ResolutionOutcome.OTHER, "again", T0))
                .isInstanceOfSatisfying(IllegalIncidentTransitionException.class,
                        e -> assertThat(e.from()).isEqualTo(IncidentState.RESOLVED));
        assertThatThrownBy(() -> resolved.attempted(9, "x", T0)).isInstanceOf(IllegalIncidentTransitionException.class);
    }

    @Test
    void whoActsMustBeNamedAndAResolutionMustSayWhatWasDone() {
        assertThatThrownBy(() -> open.acknowledge(" ", null, T0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> open.resolve("alice", ResolutionOutcome.OTHER, "", T0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> open.resolve(null, ResolutionOutcome.OTHER, "done", T0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void settlerAttemptsWhileOpenAreCountedAndKeepTheState() {
        Incident attempted = open.attempted(7, "still refused", T0.plusSeconds(300));
        assertThat(attempted.state()).isEqualTo(IncidentState.OPEN);
        assertThat(attempted.attempts()).isEqualTo(7);
        assertThat(attempted.detail()).isEqualTo("still refused");
        assertThat(open.attempted(8, null, T0).detail()).as("no new detail keeps the old").isEqualTo(open.detail());
    }

    @Test
    void anIncidentAboutAPgTransactionHasNoPayment() {
        Incident incident = Incident.openForTransaction(IncidentReason.LEDGER_MISMATCH, "tx_1", null,
                new Money(1000, "KRW"), "no payment of ours", T0);
        assertThat(incident.subject()).isEqualTo("pg:tx_1");
        assertThat(incident.paymentId()).isNull();
    }

    @Test
    void aStateAndItsResolutionTimeGoTogether() {
        assertThatThrownBy(() -> new Incident(IncidentId.random(), "payment:x", IncidentReason.UNRESOLVED,
                IncidentState.RESOLVED, null, null, null, null, "d", 0, T0, null, null, null, null, null, null, null, T0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aResolvedIncidentAndOnlyThatHasAnOutcome() {
        Incident open = Incident.open(IncidentReason.UNRESOLVED, new PaymentId(UUID.randomUUID()),
                new OrderId(UUID.randomUUID()), new Money(1000, "KRW"), null, "d", 3, T0);
        assertThat(open.outcome()).isNull();
        assertThat(open.resolve("alice", ResolutionOutcome.NO_MONEY_MOVED, "the PG shows no charge", T0).outcome())
                .isEqualTo(ResolutionOutcome.NO_MONEY_MOVED);
        assertThatThrownBy(() -> open.resolve("alice", null, "done", T0)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new Incident(IncidentId.random(), "payment:x", IncidentReason.UNRESOLVED,
                IncidentState.OPEN, null, null, null, null, "d", 0, T0, null, null, null, null, null,
                ResolutionOutcome.OTHER, null, T0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
