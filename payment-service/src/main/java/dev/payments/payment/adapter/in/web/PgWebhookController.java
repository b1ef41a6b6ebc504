package dev.payments.payment.adapter.in.web;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.payment.application.Payments;
import dev.payments.payment.application.SyncPayment;
import dev.payments.payment.application.PgSyncException;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.support.api.ProblemResponse;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.payments.support.web.Problems;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The PG's callback (field report 001's first recovery tier) is a hint, never a fact: after the
 * signature check it only names the payment, by its payment key (else its order); payment-service then asks the PG
 * itself and applies the PG's answer through the same settling rules as a sync. The body's status, amount and
 * transaction key are never used, so a forged or replayed body cannot move money or state by itself.
 */
@RestController
class PgWebhookController {

    private static final Logger log = LoggerFactory.getLogger(PgWebhookController.class);

    private final SyncPayment syncPayment;
    private final Payments payments;
    private final PgWebhookSignature webhookSignature;
    private final ObjectMapper json;

    PgWebhookController(SyncPayment syncPayment, Payments payments, PgWebhookSignature webhookSignature,
                        ObjectMapper json) {
        this.syncPayment = syncPayment;
        this.payments = payments;
        this.webhookSignature = webhookSignature;
        this.json = json;
    }

    /** Only the fields that point at a payment are read. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Callback(String eventType, Data data) {
        @JsonIgnoreProperties(ignoreUnknown = true)
        record Data(String paymentKey, String orderId) {
        }
    }

    @ApiResponse(responseCode = "200", description = "Applied or ignored: result, paymentId", content = @Content(mediaType = "application/json"))
    @ProblemResponse(status = 401, codes = "INVALID_SIGNATURE")
    @ProblemResponse(status = 503, codes = "PG_SYNC_FAILED")
    @PostMapping("/api/pg/webhooks")
    ResponseEntity<?> receive(@RequestHeader(value = "X-PG-Timestamp", required = false) String timestamp,
                              @RequestHeader(value = "X-PG-Signature", required = false) String signature,
                              @RequestBody String body) {
        PgWebhookSignature.Verdict verdict = webhookSignature.check(timestamp, signature, body);
        if (verdict != PgWebhookSignature.Verdict.VALID) {
            return Problems.response(HttpStatus.UNAUTHORIZED, "INVALID_SIGNATURE",
                    "The callback signature is " + verdict.name().toLowerCase());
        }
        Callback callback;
        try {
            callback = json.readValue(body, Callback.class);
        } catch (JsonProcessingException e) {
            return Problems.response(HttpStatus.BAD_REQUEST, "MALFORMED_REQUEST", "The callback is not valid JSON");
        }
        if (callback.data() == null || (callback.data().paymentKey() == null && callback.data().orderId() == null)) {
            return Problems.response(HttpStatus.BAD_REQUEST, "VALIDATION_FAILED",
                    "data.paymentKey or data.orderId is required");
        }
        Optional<Payment> payment = find(callback.data());
        if (payment.isEmpty()) {
            // Acknowledged so the PG stops retrying; the ledger audit still sees any approval we do not know.
            log.warn("PG callback for payment key {} / order {} matches no payment of ours; acknowledged",
                    callback.data().paymentKey(), callback.data().orderId());
            return ResponseEntity.ok(Map.of("result", "IGNORED", "reason", "no matching payment"));
        }
        PaymentId id = payment.get().id();
        try {
            SyncPayment.SyncResult result = syncPayment.sync(id).orElseThrow();
            return ResponseEntity.ok(Map.of("result", result.action().name(), "paymentId", id.toString(),
                    "pgState", result.pgState().name()));
        } catch (PgSyncException e) {
            // Not acknowledged: the PG retries the callback, and reconciliation settles the payment meanwhile.
            log.warn("PG callback for payment {}: settling with the PG failed; the PG will call again", id, e);
            return Problems.response(HttpStatus.SERVICE_UNAVAILABLE, "PG_SYNC_FAILED",
                    "Could not settle payment " + id + " with the PG now: " + e.getMessage(),
                    Map.of("paymentId", id.toString(), "stage", e.stage().name()), Duration.ofSeconds(5));
        }
    }

    private Optional<Payment> find(Callback.Data data) {
        if (data.paymentKey() != null) {
            Optional<Payment> byKey = payments.findLatestByPaymentKey(data.paymentKey());
            if (byKey.isPresent()) {
                return byKey;
            }
        }
        if (data.orderId() == null) {
            return Optional.empty();
        }
        try {
            return payments.findLatestByOrder(new OrderId(UUID.fromString(data.orderId())))
                    .filter(p -> data.paymentKey() == null || p.paymentKey().equals(data.paymentKey()));
        } catch (IllegalArgumentException notOurOrderId) {
            return Optional.empty();
        }
    }
}
