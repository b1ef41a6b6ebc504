package dev.payments.reconciliation.application.settling;

import dev.payments.contracts.Money;
import dev.payments.testsupport.infra.MovableClock;
import dev.payments.reconciliation.application.incidents.Incidents;
import dev.payments.reconciliation.application.incidents.OpenIncident;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.IncidentReason;
import dev.payments.reconciliation.domain.incidents.IncidentState;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.settling.AttemptResult;
import dev.payments.reconciliation.domain.settling.Backoff;
import dev.payments.reconciliation.domain.settling.FailureStage;
import dev.payments.reconciliation.domain.settling.SettleTrigger;
import dev.payments.reconciliation.domain.settling.SyncOutcome;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The settle cycle with its ports in memory: stop-after-3, backoff, the 30 s promise, incidents. */
class SettlePaymentsTest {

    private static final Instant T0 = Instant.parse("2026-11-29T08:00:00Z");
    private static final SyncOutcome PG_DOWN = new SyncOutcome.PgFailed(FailureStage.STATUS_QUERY, "PG down");
    private static final SyncOutcome CANCEL_REFUSED = new SyncOutcome.PgFailed(FailureStage.CANCEL,
            "PG refused to cancel pk_1: NOT_CANCELABLE_PAYMENT");
    private static final SyncOutcome APPROVED = new SyncOutcome.Answered(PaymentStatus.APPROVED, "DONE", "APPROVED");
    private static final SyncOutcome STILL_IN_PROGRESS = new SyncOutcome.Answered(PaymentStatus.UNKNOWN,
            "IN_PROGRESS", "RETRY_LATER");

    /** The shipped defaults (application.yml and the properties records). */
    private static final SettlePolicy DEFAULTS = new SettlePolicy(Duration.ofSeconds(30),
            new Backoff(Duration.ofSeconds(5), 2.0, Duration.ofSeconds(20)), 3, 100, Duration.ofSeconds(60), 5,
            Duration.ofMinutes(15), Duration.ofMinutes(5));

    private final MovableClock clock = MovableClock.at(T0);
    private final InMemorySettlement.Incidents incidents = new InMemorySettlement.Incidents();
    private final InMemorySettlement.Settlements settlements = new InMemorySettlement.Settlements(incidents);
    private final InMemorySettlement.ScriptedSync sync = new InMemorySettlement.ScriptedSync();
    private final InMemorySettlement.Alerts alerts = new InMemorySettlement.Alerts();
    private final OpenIncident openIncident = new OpenIncident(incidents, alerts);
    private final SettlePayments settler = new SettlePayments(settlements, sync, incidents, openIncident, alerts,
            new EscalateOverdue(settlements, openIncident, clock, DEFAULTS.unresolvedAfter()), alerts, clock,
            DEFAULTS, "test");

    @Test
    void anUnknownPaymentIsSettledOnceAndNeverSyncedAgain() {
        PaymentId payment = unknownPayment();
        sync.answer(payment, APPROVED);

        CycleReport first = settler.runCycle();
        clock.advance(Duration.ofMinutes(1));
        CycleReport second = settler.runCycle();

        assertThat(first.attempted()).isEqualTo(1);
        assertThat(first.settled()).isEqualTo(1);
        assertThat(second.attempted()).isZero();
        assertThat(sync.callsOf(payment)).isEqualTo(1);
        assertThat(settlements.find(payment)).get().satisfies(s -> {
            assertThat(s.settledStatus()).isEqualTo(PaymentStatus.APPROVED);
            assertThat(s.lastResult()).isEqualTo(AttemptResult.SETTLED);
        });
    }

    @Test
    void aCycleStopsAfterThreeConsecutiveFailuresAndTheNextCycleTriesTheOthers() {
        List<PaymentId> payments = unknownPayments(5);
        sync.otherwise = PG_DOWN;

        CycleReport first = settler.runCycle();

        assertThat(sync.calls).containsExactlyElementsOf(payments.subList(0, 3));
        assertThat(first.stoppedEarly()).isTrue();
        assertThat(first.stopReason()).contains("3 consecutive failures");
        assertThat(first.failures()).isEqualTo(3);

        clock.advance(Duration.ofSeconds(1));
        CycleReport second = settler.runCycle();
        assertThat(sync.calls.subList(3, sync.calls.size())).as("the first three back off")
                .containsExactlyElementsOf(payments.subList(3, 5));
        assertThat(second.stoppedEarly()).isFalse();
    }

    @Test
    void anAnswerFromThePgBetweenFailuresKeepsTheCycleGoing() {
        List<PaymentId> payments = unknownPayments(5);
        sync.otherwise = PG_DOWN;
        sync.answer(payments.get(2), STILL_IN_PROGRESS);

        CycleReport report = settler.runCycle();

        assertThat(report.attempted()).isEqualTo(5);
        assertThat(report.stoppedEarly()).isFalse();
    }

    @Test
    void aPaymentUnknownToPaymentServiceNeitherStopsTheCycleNorResetsTheCount() {
        List<PaymentId> payments = unknownPayments(5);
        sync.otherwise = PG_DOWN;
        sync.answer(payments.get(1), new SyncOutcome.NotFound("no payment"));

        settler.runCycle();

        assertThat(sync.calls).containsExactlyElementsOf(payments.subList(0, 4));
    }

    @Test
    void eachPaymentBacksOffExponentiallyBetweenAttempts() {
        PaymentId payment = unknownPayment();
        sync.answer(payment, PG_DOWN);
        List<Instant> attempts = new ArrayList<>();
        for (int second = 0; second <= 60; second++) {
            int before = sync.calls.size();
            settler.runCycle();
            if (sync.calls.size() > before) {
                attempts.add(clock.instant());
            }
            clock.advance(Duration.ofSeconds(1));
        }
        assertThat(attempts).containsExactly(T0, T0.plusSeconds(5), T0.plusSeconds(15), T0.plusSeconds(35),
                T0.plusSeconds(55));
    }

    @Test
    void withTheDefaultsAnUnknownIsSettledWithin30SecondsAfterThePgRecoversWhateverThePhase() {
        for (int recoversAt = 60; recoversAt < 120; recoversAt++) {
            SettlePaymentsTest run = new SettlePaymentsTest();
            PaymentId payment = run.unknownPayment();
            run.sync.answer(payment, PG_DOWN);
            Instant recovered = T0.plusSeconds(recoversAt);
            Instant settledAt = null;
            // The schedule: a cycle, then a 5 s pause (the sync itself is instant here).
            while (settledAt == null && run.clock.instant().isBefore(T0.plusSeconds(300))) {
                if (!run.clock.instant().isBefore(recovered)) {
                    run.sync.answer(payment, APPROVED);
                }
                if (run.settler.runCycle().settled() > 0) {
                    settledAt = run.clock.instant();
                }
                run.clock.advance(Duration.ofSeconds(5));
            }
            assertThat(settledAt).as("PG back at +%ds", recoversAt).isNotNull();
            assertThat(Duration.between(recovered, settledAt)).as("PG back at +%ds", recoversAt)
                    .isLessThanOrEqualTo(Duration.ofSeconds(30));
        }
    }

    @Test
    void aCompensationThatFailsFiveTimesInARowOpensOneIncidentAndAlerts() {
        PaymentId payment = unknownPayment();
        sync.answer(payment, CANCEL_REFUSED);

        for (int i = 0; i < 4; i++) {
            settler.runCycle();
            clock.advance(Duration.ofSeconds(20));
        }
        assertThat(alerts.opened).isEmpty();
        CycleReport fifth = settler.runCycle();

        assertThat(fifth.incidentsOpened()).isEqualTo(1);
        assertThat(alerts.opened).singleElement().satisfies(incident -> {
            assertThat(incident.reason()).isEqualTo(IncidentReason.COMPENSATION_FAILED);
            assertThat(incident.paymentId()).isEqualTo(payment);
            assertThat(incident.amount()).isEqualTo(new Money(15_000, "KRW"));
            assertThat(incident.attempts()).isEqualTo(5);
            assertThat(incident.state()).isEqualTo(IncidentState.OPEN);
            assertThat(incident.detail()).contains("5 times in a row").contains("NOT_CANCELABLE_PAYMENT");
        });
        assertThat(settlements.find(payment).get().nextAttemptAt()).as("retried slowly while the incident is open")
                .isEqualTo(clock.instant().plus(DEFAULTS.incidentRetryInterval()));

        clock.advance(DEFAULTS.incidentRetryInterval());
        settler.runCycle();
        assertThat(alerts.opened).as("one incident per payment, however long it fails").hasSize(1);
        assertThat(incidents.findBySubject(Incident.subjectOf(payment)).get().attempts()).isEqualTo(6);
    }

    @Test
    void aPgAnswerThatIsNotAboutOurPaymentOpensOneMismatchIncidentAtOnce() {
        PaymentId payment = unknownPayment();
        sync.answer(payment, new SyncOutcome.Answered(PaymentStatus.UNKNOWN, "DONE", "MISMATCH"));

        CycleReport first = settler.runCycle();

        assertThat(first.incidentsOpened()).isEqualTo(1);
        assertThat(alerts.opened).singleElement().satisfies(incident -> {
            assertThat(incident.reason()).isEqualTo(IncidentReason.PG_MISMATCH);
            assertThat(incident.paymentId()).isEqualTo(payment);
        });
        assertThat(settlements.find(payment).get().nextAttemptAt()).as("retried slowly while a human looks")
                .isEqualTo(clock.instant().plus(DEFAULTS.incidentRetryInterval()));

        clock.advance(DEFAULTS.incidentRetryInterval());
        settler.runCycle();
        assertThat(alerts.opened).as("one incident per payment").hasSize(1);
    }

    @Test
    void whenTheSettlerRepairsAPaymentItsOpenIncidentIsResolvedBySystem() {
        PaymentId payment = unknownPayment();
        sync.answer(payment, CANCEL_REFUSED);
        for (int i = 0; i < 5; i++) {
            settler.runCycle();
            clock.advance(Duration.ofSeconds(20));
        }
        sync.answer(payment, new SyncOutcome.Answered(PaymentStatus.CANCELED, "CANCELED", "CANCELED"));
        clock.advance(DEFAULTS.incidentRetryInterval());

        settler.runCycle();

        Incident incident = incidents.findBySubject(Incident.subjectOf(payment)).orElseThrow();
        assertThat(incident.state()).isEqualTo(IncidentState.RESOLVED);
        assertThat(incident.resolvedBy()).isEqualTo(Incident.SYSTEM);
        assertThat(incident.resolution()).contains("CANCELED");
        assertThat(alerts.changed).extracting(Incident::state).containsExactly(IncidentState.RESOLVED);
    }

    @Test
    void aPgOutageOpensNoIncidentBeforeTheLongDeadline() {
        List<PaymentId> payments = unknownPayments(10);
        sync.otherwise = PG_DOWN;
        for (int second = 0; second < 600; second += 5) {
            settler.runCycle();
            clock.advance(Duration.ofSeconds(5));
        }
        assertThat(alerts.opened).isEmpty();
        assertThat(payments).allSatisfy(p -> assertThat(settlements.find(p)).get()
                .satisfies(s -> assertThat(s.compensationFailures()).isZero()));
    }

    @Test
    void aRefusedCallStopsTheCycleAndIsNotHeldAgainstThePayment() {
        List<PaymentId> payments = unknownPayments(3);
        sync.otherwise = new SyncOutcome.Refused(401, "OPERATOR_TOKEN_REQUIRED");

        CycleReport report = settler.runCycle();

        assertThat(sync.calls).containsExactly(payments.get(0));
        assertThat(report.stoppedEarly()).isTrue();
        assertThat(report.stopReason()).contains("401");
        assertThat(report.attempted()).isZero();
        assertThat(settlements.attempts).isEmpty();
    }

    @Test
    void overduePaymentsAndStuckOrdersBecomeIncidentsOnce() {
        PaymentId unresolved = new PaymentId(UUID.randomUUID());
        PaymentId stuck = new PaymentId(UUID.randomUUID());
        Instant longAgo = T0.minus(Duration.ofMinutes(16));
        settlements.overduePayments.add(new Overdue(unresolved, new OrderId(UUID.randomUUID()),
                new Money(1_000, "KRW"), PaymentStatus.UNKNOWN, longAgo, Optional.empty()));
        settlements.overdueOrders.add(new Overdue(stuck, new OrderId(UUID.randomUUID()), new Money(2_000, "KRW"),
                PaymentStatus.FAILED, longAgo, Optional.empty()));

        CycleReport first = settler.runCycle();
        CycleReport second = settler.runCycle();

        assertThat(first.incidentsOpened()).isEqualTo(2);
        assertThat(second.incidentsOpened()).isZero();
        assertThat(alerts.opened).extracting(Incident::reason)
                .containsExactly(IncidentReason.UNRESOLVED, IncidentReason.ORDER_STUCK);
        assertThat(alerts.opened.get(1).detail()).contains("payment.events.order-service.dlt");
    }

    // --- helpers

    private final List<SettleCandidate> candidates = new ArrayList<>();

    private PaymentId unknownPayment() {
        PaymentId id = new PaymentId(UUID.randomUUID());
        SettleCandidate candidate = new SettleCandidate(id, new OrderId(UUID.randomUUID()),
                SettleTrigger.PAYMENT_UNKNOWN, new Money(15_000, "KRW"), T0.minusSeconds(100 - candidates.size()));
        candidates.add(candidate);
        settlements.candidates.add(candidate);
        return id;
    }

    private List<PaymentId> unknownPayments(int n) {
        List<PaymentId> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(unknownPayment());
        }
        return ids;
    }
}
