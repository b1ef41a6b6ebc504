package dev.payments.payment.adapter.in.web;

import dev.payments.payment.application.RefundCommand;
import dev.payments.payment.application.RefundPayment;
import dev.payments.payment.application.Refunds;
import dev.payments.payment.application.Payments;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PaymentStatus;
import dev.payments.payment.domain.Refund;

import dev.payments.support.api.ProblemResponse;
import dev.payments.support.security.Caller;
import dev.payments.support.web.InputRules;
import dev.payments.support.web.Problems;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Partial refunds (docs/refunds.md): a member's of their own payment, and an operator's with the scope
 * {@code payments:refund} and a reason (recorded in the operator audit trail, as every scoped action is). 200 when the
 * PG gave the money back, 202 while its answer is not known (the amount stays reserved; the same key answers the
 * refund as it is then, never sends it again), 422 when the PG did not.
 */
@RestController
class RefundController {

    /** Failures that mean "not sent, nothing booked, try again shortly" rather than "the PG said no". */
    private static final Set<String> NOT_SENT = Set.of("PG_RECOVERY_BUSY", "PG_CONNECT_FAILED");

    private final RefundPayment refundPayment;
    private final Refunds refunds;
    private final Payments payments;

    RefundController(RefundPayment refundPayment, Refunds refunds, Payments payments) {
        this.refundPayment = refundPayment;
        this.refunds = refunds;
        this.payments = payments;
    }

    @ApiResponse(responseCode = "200", description = "SUCCEEDED: the PG gave the amount back",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = RefundView.class)))
    @ApiResponse(responseCode = "202", description = "REQUESTED or UNKNOWN: the PG's answer is not known yet; the amount stays reserved and the refund is settled from the PG's books",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = RefundView.class)))
    @ProblemResponse(status = 404, codes = "PAYMENT_NOT_FOUND")
    @ProblemResponse(status = 409, codes = {"PAYMENT_NOT_REFUNDABLE", "REFUND_EXCEEDS_REFUNDABLE", "IDEMPOTENCY_KEY_REUSED"})
    @ProblemResponse(status = 422, codes = "REFUND_FAILED")
    @ProblemResponse(status = 503, codes = "PG_UNAVAILABLE")
    @PostMapping("/api/payments/{paymentId}/refunds")
    ResponseEntity<?> refund(@PathVariable UUID paymentId,
                             @RequestHeader("Idempotency-Key") @NotBlank @Size(max = 128)
                             @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String idempotencyKey,
                             Caller member, @Valid @RequestBody RefundRequest request) {
        return answer(paymentId, refundPayment.refund(new RefundCommand(new PaymentId(paymentId),
                Refund.Requester.MEMBER, member.subject(), idempotencyKey, request.amount(), request.reason())));
    }

    @ApiResponse(responseCode = "200", description = "SUCCEEDED: the PG gave the amount back",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = RefundView.class)))
    @ApiResponse(responseCode = "202", description = "REQUESTED or UNKNOWN: the PG's answer is not known yet",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = RefundView.class)))
    @ProblemResponse(status = 400, codes = "REASON_REQUIRED")
    @ProblemResponse(status = 404, codes = "PAYMENT_NOT_FOUND")
    @ProblemResponse(status = 409, codes = {"PAYMENT_NOT_REFUNDABLE", "REFUND_EXCEEDS_REFUNDABLE", "IDEMPOTENCY_KEY_REUSED"})
    @ProblemResponse(status = 422, codes = "REFUND_FAILED")
    @ProblemResponse(status = 503, codes = "PG_UNAVAILABLE")
    @PostMapping("/api/payments/{paymentId}/operator-refunds")
    ResponseEntity<?> operatorRefund(@PathVariable UUID paymentId,
                                     @RequestHeader("Idempotency-Key") @NotBlank @Size(max = 128)
                                     @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String idempotencyKey,
                                     Caller operator, @Valid @RequestBody RefundRequest request) {
        if (request.reason() == null || request.reason().isBlank()) {
            return Problems.response(HttpStatus.BAD_REQUEST, "REASON_REQUIRED",
                    "An operator's refund says why: give a reason");
        }
        return answer(paymentId, refundPayment.refund(new RefundCommand(new PaymentId(paymentId),
                Refund.Requester.OPERATOR, operator.subject(), idempotencyKey, request.amount(), request.reason())));
    }

    /** The member's refunds of their payment, oldest first. */
    @ApiResponse(responseCode = "200", description = "The payment's refunds",
            content = @Content(mediaType = "application/json"))
    @ProblemResponse(status = 404, codes = "PAYMENT_NOT_FOUND")
    @GetMapping("/api/payments/{paymentId}/refunds")
    ResponseEntity<?> list(@PathVariable UUID paymentId, Caller member) {
        PaymentId id = new PaymentId(paymentId);
        if (payments.findById(id).filter(p -> p.memberId().equals(new MemberId(member.subject()))).isEmpty()) {
            return Problems.response(HttpStatus.NOT_FOUND, "PAYMENT_NOT_FOUND", "No payment " + paymentId);
        }
        Refunds.RefundAmounts amounts = refunds.amounts(id);
        List<RefundView> views = refunds.findByPayment(id).stream().map(r -> RefundView.of(r, amounts)).toList();
        return ResponseEntity.ok(Map.of("paymentId", paymentId, "amount", amounts.approved(),
                "refunded", amounts.refunded(), "refundable", amounts.refundable(), "refunds", views));
    }

    /**
     * Any payment's refunds for an operator (scope {@code payments:read}), oldest first, with what is refunded and what
     * is left to refund: what a refund form must show before an operator types an amount.
     */
    @ApiResponse(responseCode = "200", description = "The payment's refunds and amounts",
            content = @Content(mediaType = "application/json"))
    @ProblemResponse(status = 404, codes = "PAYMENT_NOT_FOUND")
    @GetMapping("/api/payments/{paymentId}/operator-refunds")
    ResponseEntity<?> listForOperator(@PathVariable UUID paymentId) {
        PaymentId id = new PaymentId(paymentId);
        return payments.findById(id).<ResponseEntity<?>>map(payment -> {
            Refunds.RefundAmounts amounts = refunds.amounts(id);
            // Only an APPROVED payment can be refunded in part; a canceled one has nothing left, whatever its refunds.
            long refundable = payment.status() == PaymentStatus.APPROVED ? amounts.refundable() : 0;
            List<RefundView> views = refunds.findByPayment(id).stream().map(r -> RefundView.of(r, amounts)).toList();
            return ResponseEntity.ok(Map.of("paymentId", paymentId, "status", payment.status().name(),
                    "amount", amounts.approved(), "currency", payment.money().currency(),
                    "refunded", amounts.refunded(), "refundable", refundable, "refunds", views));
        }).orElseGet(() -> Problems.response(HttpStatus.NOT_FOUND, "PAYMENT_NOT_FOUND", "No payment " + paymentId));
    }

    private static ResponseEntity<?> answer(UUID paymentId, RefundPayment.Result result) {
        if (result instanceof RefundPayment.Result.Answered answered) {
            Refund refund = answered.refund();
            RefundView view = RefundView.of(refund, answered.amounts());
            return switch (refund.status()) {
                case SUCCEEDED -> ResponseEntity.ok(view);
                case REQUESTED, UNKNOWN -> ResponseEntity.accepted().body(view);
                case FAILED -> failed(refund);
            };
        }
        if (result instanceof RefundPayment.Result.Refused refused) {
            Map<String, Object> details = new HashMap<>();
            details.put("paymentId", paymentId);
            if (refused.amounts() != null) {
                details.put("refundable", refused.amounts().refundable());
            }
            return Problems.response(HttpStatus.CONFLICT, refused.refusal().name(), refused.detail(), details, null);
        }
        return Problems.response(HttpStatus.NOT_FOUND, "PAYMENT_NOT_FOUND", "No payment " + paymentId);
    }

    private static ResponseEntity<?> failed(Refund refund) {
        Map<String, Object> details = Map.of("refundId", refund.id().value(), "paymentId", refund.paymentId().value(),
                "reason", String.valueOf(refund.failureCode()));
        if (NOT_SENT.contains(refund.failureCode())) {
            return Problems.response(HttpStatus.SERVICE_UNAVAILABLE, "PG_UNAVAILABLE", "Refund " + refund.id()
                    + " was not sent to the PG; nothing was refunded. Ask again with a new Idempotency-Key", details,
                    Duration.ofSeconds(5));
        }
        return Problems.response(HttpStatus.UNPROCESSABLE_ENTITY, "REFUND_FAILED", "The PG did not refund "
                + refund.money() + " (" + refund.failureCode() + ")", details, null);
    }

}
