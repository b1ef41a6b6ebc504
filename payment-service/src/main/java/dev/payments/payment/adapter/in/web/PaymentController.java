package dev.payments.payment.adapter.in.web;

import dev.payments.payment.application.CancelPayment;
import dev.payments.payment.application.ConfirmCommand;
import dev.payments.payment.application.ConfirmPayment;
import dev.payments.payment.application.ConfirmResult;
import dev.payments.payment.application.PaymentReceipt;
import dev.payments.payment.application.Payments;
import dev.payments.payment.application.Refunds;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PaymentId;
import dev.payments.support.api.ProblemResponse;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import dev.payments.support.security.Caller;
import dev.payments.support.web.InputRules;
import dev.payments.support.web.Problems;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.Map;
import java.util.UUID;

// No @Validated: its AOP proxy throws ConstraintViolationException, which no handler maps (a tab in Idempotency-Key
// was 500); Spring MVC's own method validation checks the header's constraints and answers 400 VALIDATION_FAILED.
@RestController
@RequestMapping("/api/payments")
class PaymentController {

    private final ConfirmPayment confirmPayment;
    private final CancelPayment cancelPayment;
    private final Payments payments;
    private final Refunds refunds;

    PaymentController(ConfirmPayment confirmPayment, CancelPayment cancelPayment, Payments payments, Refunds refunds) {
        this.confirmPayment = confirmPayment;
        this.cancelPayment = cancelPayment;
        this.payments = payments;
        this.refunds = refunds;
    }

    @ApiResponse(responseCode = "200", description = "APPROVED: the customer is charged",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = PaymentResponse.class)))
    @ApiResponse(responseCode = "202", description = "The outcome is not known yet (the PG is slow or silent): PENDING, settled later; poll the payment",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = PaymentResponse.class)))
    @ProblemResponse(status = 400, codes = "AMOUNT_MISMATCH")
    @ProblemResponse(status = 404, codes = "ORDER_NOT_FOUND")
    @ProblemResponse(status = 409, codes = {"ORDER_ALREADY_PAID", "ORDER_NOT_PAYABLE", "PAYMENT_IN_PROGRESS",
            "PAYMENT_KEY_USED", "IDEMPOTENCY_KEY_REUSED"})
    @ProblemResponse(status = 422, codes = "PAYMENT_DECLINED")
    @ProblemResponse(status = 429, codes = "RATE_LIMITED")
    @ProblemResponse(status = 502, codes = "PAYMENT_FAILED")
    @ProblemResponse(status = 503, codes = {"PG_UNAVAILABLE", "DB_UNAVAILABLE"})
    @PostMapping("/confirm")
    ResponseEntity<?> confirm(@RequestHeader("Idempotency-Key") @NotBlank @Size(max = 128)
                              @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String idempotencyKey,
                              Caller member, @Valid @RequestBody ConfirmRequest request) {
        ConfirmResult result = confirmPayment.confirm(new ConfirmCommand(new MemberId(member.subject()), idempotencyKey,
                new OrderId(request.orderId()), request.paymentKey(), request.amount()));
        if (result instanceof ConfirmResult.Told told) {
            return answer(told.receipt());
        }
        return refusal((ConfirmResult.Refused) result);
    }

    /** Another member's payment is answered like one that does not exist: its id reveals nothing. */
    @ApiResponse(responseCode = "200", description = "The payment",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = PaymentView.class)))
    @ProblemResponse(status = 404, codes = "PAYMENT_NOT_FOUND")
    @GetMapping("/{paymentId}")
    ResponseEntity<?> get(@PathVariable UUID paymentId, Caller member) {
        return payments.findById(new PaymentId(paymentId))
                .filter(payment -> payment.memberId().equals(new MemberId(member.subject())))
                .<ResponseEntity<?>>map(payment -> ResponseEntity.ok(PaymentView.of(payment,
                        refunds.amounts(payment.id()))))
                .orElseGet(() -> Problems.response(HttpStatus.NOT_FOUND, "PAYMENT_NOT_FOUND",
                        "No payment " + paymentId));
    }

    /**
     * Refunds an approved payment, or gives up on one whose outcome is unknown (docs/decisions/payment-cancel.md):
     * 200 with the final payment, 202 while the PG has not confirmed the cancel or settled the payment — the cancel is
     * owed from then on and reconciliation finishes it (the member will not be charged either way).
     */
    @ApiResponse(responseCode = "200", description = "Canceled (refunded, or given up on: the customer is not charged)",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = PaymentView.class)))
    @ApiResponse(responseCode = "202", description = "Accepted: the PG has not settled the cancel yet; the customer will not be charged",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = PaymentView.class)))
    @ProblemResponse(status = 404, codes = "PAYMENT_NOT_FOUND")
    @ProblemResponse(status = 409, codes = {"PAYMENT_IN_FLIGHT", "PAYMENT_NOT_CANCELABLE"})
    @ProblemResponse(status = 502, codes = "PG_CANCEL_FAILED")
    @ProblemResponse(status = 503, codes = "PG_UNAVAILABLE")
    @PostMapping("/{paymentId}/cancel")
    ResponseEntity<?> cancel(@PathVariable UUID paymentId,
                             Caller member, @Valid @RequestBody(required = false) CancelRequest request) {
        String reason = request == null || request.reason() == null || request.reason().isBlank()
                ? "customer request" : request.reason();
        return cancelAnswer(cancelPayment.cancel(new PaymentId(paymentId), new MemberId(member.subject()), reason),
                paymentId, "No payment " + paymentId + " for this member");
    }

    /** A cancel's answer, the member's or an operator's: 200 final, 202 owed or pending, 409 refused, 404. */
    static ResponseEntity<?> cancelAnswer(CancelPayment.Result result, UUID paymentId, String notFound) {
        if (result instanceof CancelPayment.Result.Done done) {
            return ResponseEntity.ok(PaymentView.of(done.payment()));
        }
        if (result instanceof CancelPayment.Result.Pending pending) {
            return ResponseEntity.accepted().body(PaymentView.of(pending.payment()));
        }
        if (result instanceof CancelPayment.Result.Refused refused) {
            return Problems.response(HttpStatus.CONFLICT, refused.refusal().name(), refused.detail(),
                    Map.of("paymentId", paymentId), refused.retryAfter());
        }
        return Problems.response(HttpStatus.NOT_FOUND, "PAYMENT_NOT_FOUND", notFound);
    }

    /** @param reason the member's words, passed on to the PG */
    record CancelRequest(@Size(max = 200) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String reason) {
    }

    private static ResponseEntity<?> answer(PaymentReceipt receipt) {
        return switch (receipt.result()) {
            case APPROVED -> ResponseEntity.ok(PaymentResponse.of(receipt));
            case PENDING, NONE -> ResponseEntity.accepted().body(PaymentResponse.of(receipt));
            case DECLINED -> Problems.response(HttpStatus.UNPROCESSABLE_ENTITY, "PAYMENT_DECLINED",
                    receipt.message() == null ? "The PG declined the payment" : receipt.message(),
                    Map.of("paymentId", receipt.paymentId(), "pgCode", String.valueOf(receipt.code())), null);
            case FAILED -> Problems.response(HttpStatus.BAD_GATEWAY, "PAYMENT_FAILED", receipt.message(),
                    Map.of("paymentId", receipt.paymentId(), "reason", String.valueOf(receipt.code())), null);
        };
    }

    private static ResponseEntity<?> refusal(ConfirmResult.Refused refused) {
        return Problems.response(statusOf(refused.refusal()), refused.refusal().name(), refused.detail(), Map.of(),
                refused.retryAfter());
    }

    static HttpStatus statusOf(ConfirmResult.Refusal refusal) {
        return switch (refusal) {
            case PG_UNAVAILABLE, DB_UNAVAILABLE -> HttpStatus.SERVICE_UNAVAILABLE;
            case RATE_LIMITED -> HttpStatus.TOO_MANY_REQUESTS;
            case ORDER_NOT_FOUND -> HttpStatus.NOT_FOUND;
            case ORDER_ALREADY_PAID, ORDER_NOT_PAYABLE, PAYMENT_IN_PROGRESS, PAYMENT_KEY_USED, IDEMPOTENCY_KEY_REUSED ->
                    HttpStatus.CONFLICT;
            case AMOUNT_MISMATCH -> HttpStatus.BAD_REQUEST;
        };
    }
}
