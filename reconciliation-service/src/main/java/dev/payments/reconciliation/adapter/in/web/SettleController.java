package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.application.settling.CycleReport;
import dev.payments.reconciliation.application.settling.SettleAttempt;
import dev.payments.reconciliation.application.settling.SettlePayments;
import dev.payments.reconciliation.application.settling.ShowSettlement;
import dev.payments.reconciliation.domain.settling.Settlement;
import dev.payments.reconciliation.domain.shared.PaymentId;
import dev.payments.support.api.ProblemResponse;
import dev.payments.support.web.Problems;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The settler: run a cycle now (operator token), and where one payment's settling stands. */
@RestController
@RequestMapping("/api/reconciliation")
class SettleController {

    private final SettlePayments settlePayments;
    private final ShowSettlement showSettlement;

    SettleController(SettlePayments settlePayments, ShowSettlement showSettlement) {
        this.settlePayments = settlePayments;
        this.showSettlement = showSettlement;
    }

    record CycleResponse(Instant startedAt, long tookMs, int due, int attempted, int settled,
                         int failures, boolean stoppedEarly, String stopReason, int incidentsOpened) {

        static CycleResponse of(CycleReport r) {
            return new CycleResponse(r.startedAt(), r.took().toMillis(), r.due(), r.attempted(),
                    r.settled(), r.failures(), r.stoppedEarly(), r.stopReason(), r.incidentsOpened());
        }
    }

    record SettlementResponse(UUID paymentId, UUID orderId, String trigger, int attempts, int unsettledStreak,
                              int compensationFailures, String lastResult, String lastPgState, String lastDetail,
                              Instant firstAttemptAt, Instant lastAttemptAt, Instant nextAttemptAt, Instant settledAt,
                              String settledStatus, List<Attempt> attemptHistory) {

        record Attempt(Instant at, String trigger, String result, String paymentStatus, String pgState, String action,
                       String detail, long tookMs) {

            static Attempt of(SettleAttempt a) {
                return new Attempt(a.attemptedAt(), a.trigger().name(), a.result().name(),
                        a.paymentStatus() == null ? null : a.paymentStatus().name(), a.pgState(), a.action(),
                        a.detail(), a.took().toMillis());
            }
        }

        static SettlementResponse of(ShowSettlement.SettlementReport report) {
            Settlement s = report.settlement();
            return new SettlementResponse(s.paymentId().value(), s.orderId().value(), s.trigger().name(), s.attempts(),
                    s.unsettledStreak(), s.compensationFailures(),
                    s.lastResult() == null ? null : s.lastResult().name(), s.lastPgState(), s.lastDetail(),
                    s.firstAttemptAt(), s.lastAttemptAt(), s.nextAttemptAt(), s.settledAt(),
                    s.settledStatus() == null ? null : s.settledStatus().name(),
                    report.attempts().stream().map(Attempt::of).toList());
        }
    }

    @ProblemResponse(status = 502, codes = "PG_LISTING_FAILED")
    @PostMapping("/settle")
    CycleResponse settleNow() {
        return CycleResponse.of(settlePayments.runCycle());
    }

    @ProblemResponse(status = 404, codes = "SETTLEMENT_NOT_FOUND")
    @GetMapping("/settlements/{paymentId}")
    ResponseEntity<SettlementResponse> settlement(@PathVariable UUID paymentId) {
        return showSettlement.show(new PaymentId(paymentId)).map(SettlementResponse::of).map(ResponseEntity::ok)
                .orElseGet(() -> Problems.refusal(HttpStatus.NOT_FOUND, "SETTLEMENT_NOT_FOUND",
                        "The settler never picked payment " + paymentId));
    }
}
