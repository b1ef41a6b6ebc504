package dev.payments.payment.adapter.in.web;

import dev.payments.payment.application.CancelPayment;
import dev.payments.payment.application.PgSyncException;
import dev.payments.payment.application.RecoveryCallsBusyException;
import dev.payments.payment.application.RepublishPaymentEvents;
import dev.payments.payment.application.SyncPayment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.support.api.ProblemResponse;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.payments.support.security.Caller;
import dev.payments.support.web.InputRules;
import dev.payments.support.web.Problems;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Operator and service actions; the scope each needs is declared in config ({@code payments:sync},
 * {@code payments:refund}). Who asked is the token's subject (an operator, or reconciliation-service's client id),
 * recorded in the operator audit trail and named in the answer.
 */
@RestController
class OperatorController {

    private static final Logger log = LoggerFactory.getLogger(OperatorController.class);

    private final SyncPayment syncPayment;
    private final RepublishPaymentEvents republishPaymentEvents;
    private final CancelPayment cancelPayment;

    OperatorController(SyncPayment syncPayment, RepublishPaymentEvents republishPaymentEvents,
                       CancelPayment cancelPayment) {
        this.syncPayment = syncPayment;
        this.republishPaymentEvents = republishPaymentEvents;
        this.cancelPayment = cancelPayment;
    }

    /** @param reason why the operator gives the money back: required, one line; recorded in the audit trail */
    record RefundRequest(@NotBlank @Size(max = 200) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS,
            message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String reason) {
    }

    /**
     * A full refund on the customer's behalf (scope {@code payments:refund}): the member's own cancel, with the same
     * states and answers (docs/decisions/payment-cancel.md), for any member's payment; the reason is required. 200 with
     * the final payment, 202 while the PG has not confirmed the cancel (owed from then on; reconciliation finishes it).
     */
    @ApiResponse(responseCode = "200", description = "Canceled (refunded, or given up on: the customer is not charged)",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = PaymentView.class)))
    @ApiResponse(responseCode = "202", description = "Accepted: the PG has not settled the cancel yet; the customer will not be charged",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = PaymentView.class)))
    @ProblemResponse(status = 404, codes = "PAYMENT_NOT_FOUND")
    @ProblemResponse(status = 409, codes = {"PAYMENT_IN_FLIGHT", "PAYMENT_NOT_CANCELABLE"})
    @PostMapping("/api/payments/{paymentId}/refund")
    ResponseEntity<?> refund(@PathVariable UUID paymentId, Caller operator, @Valid @RequestBody RefundRequest request) {
        return PaymentController.cancelAnswer(cancelPayment.cancelForCustomer(new PaymentId(paymentId),
                operator.subject(), request.reason().trim()), paymentId, "No payment " + paymentId);
    }

    /**
     * Publishes a settled payment's events again (same ids), for a consumer that lost its outcome; changes no state
     * and repeating it is harmless. 409 {@code PAYMENT_NOT_FINAL} for an unsettled payment (sync it instead), 409
     * {@code EVENTS_NOT_RETAINED} when the outbox no longer keeps them.
     */
    @ApiResponse(responseCode = "200", description = "Republished: payment, events, requestedBy",
            content = @Content(mediaType = "application/json"))
    @ProblemResponse(status = 404, codes = "PAYMENT_NOT_FOUND")
    @ProblemResponse(status = 409, codes = {"PAYMENT_NOT_FINAL", "EVENTS_NOT_RETAINED"})
    @PostMapping("/api/payments/{paymentId}/republish")
    ResponseEntity<?> republish(@PathVariable UUID paymentId, Caller operator) {
        return republishPaymentEvents.republish(new PaymentId(paymentId))
                .<ResponseEntity<?>>map(result -> republished(paymentId, result, operator))
                .orElseGet(() -> Problems.response(HttpStatus.NOT_FOUND, "PAYMENT_NOT_FOUND", "No payment " + paymentId));
    }

    private static ResponseEntity<?> republished(UUID paymentId, RepublishPaymentEvents.Result result, Caller operator) {
        if (result instanceof RepublishPaymentEvents.Result.Republished republished) {
            return ResponseEntity.ok(Map.of("payment", PaymentView.of(republished.payment()),
                    "events", republished.events(), "requestedBy", operator.subject()));
        }
        if (result instanceof RepublishPaymentEvents.Result.NotFinal) {
            return Problems.response(HttpStatus.CONFLICT, "PAYMENT_NOT_FINAL", "Payment " + paymentId + " is "
                    + result.payment().status() + ": it has no outcome to publish again; sync it instead");
        }
        return Problems.response(HttpStatus.CONFLICT, "EVENTS_NOT_RETAINED", "The events of payment " + paymentId
                + " are no longer kept in the outbox; its outcome must be repaired by hand");
    }

    /** Asks the PG (never blocked by the breaker) and settles the payment; repeating it changes nothing. */
    @ApiResponse(responseCode = "200", description = "Synced: payment, pgState, action taken, requestedBy; retryAt "
            + "when RETRY_LATER can be decided then", content = @Content(mediaType = "application/json"))
    @ProblemResponse(status = 404, codes = "PAYMENT_NOT_FOUND")
    @ProblemResponse(status = 502, codes = "PG_SYNC_FAILED")
    @ProblemResponse(status = 503, codes = "PG_UNAVAILABLE")
    @PostMapping("/api/payments/{paymentId}/sync")
    ResponseEntity<?> sync(@PathVariable UUID paymentId, Caller operator) {
        try {
            return syncPayment.sync(new PaymentId(paymentId))
                    .<ResponseEntity<?>>map(result -> ResponseEntity.ok(synced(result, operator)))
                    .orElseGet(() -> Problems.response(HttpStatus.NOT_FOUND, "PAYMENT_NOT_FOUND", "No payment " + paymentId));
        } catch (PgSyncException e) {
            if (e.pgNotCalled()) {
                // Not a PG failure and not a failed cancel: reconciliation backs off as for any 503 (UNAVAILABLE),
                // so a busy recovery bulkhead never counts toward a compensation incident.
                return Problems.response(HttpStatus.SERVICE_UNAVAILABLE, "PG_UNAVAILABLE",
                        "Payment " + paymentId + " was not synced: " + e.getCause().getMessage(),
                        Map.of("stage", e.stage().name()), ((RecoveryCallsBusyException) e.getCause()).retryAfter());
            }
            // The PG could not be asked, or refused the compensating cancel. Nothing was written; the caller
            // (reconciliation) retries with backoff and opens an incident when cancels keep failing.
            log.warn("Sync of payment {} failed", paymentId, e);
            Map<String, Object> details = new java.util.HashMap<>();
            details.put("stage", e.stage().name());
            if (e.pgState() != null) {
                details.put("pgState", e.pgState());
            }
            return Problems.response(HttpStatus.BAD_GATEWAY, "PG_SYNC_FAILED",
                    "The PG could not settle payment " + paymentId + ": " + e.getMessage(), details, null);
        }
    }

    /** {@code retryAt}: when a sync can decide a RETRY_LATER the PG keeps answering the same way (reconciliation asks then). */
    private static Map<String, Object> synced(SyncPayment.SyncResult result, Caller operator) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("payment", PaymentView.of(result.payment()));
        body.put("pgState", result.pgState().name());
        body.put("action", result.action().name());
        if (result.decidableAt() != null) {
            body.put("retryAt", result.decidableAt().toString());
        }
        body.put("requestedBy", operator.subject());
        return body;
    }
}
