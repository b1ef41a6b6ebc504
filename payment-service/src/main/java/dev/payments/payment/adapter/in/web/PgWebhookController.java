package dev.payments.payment.adapter.in.web;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.payment.application.Payments;
import dev.payments.payment.application.SyncPayment;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PgState;
import dev.payments.payment.domain.PgStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.payments.support.web.Problems;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;

/**
 * The PG's asynchronous result (field report 001's first recovery tier). Accepted only with a valid, fresh signature,
 * and folded into the payment through the same settling rules as a sync, so a repeated callback changes nothing.
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

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Callback(String eventType, Data data) {
        @JsonIgnoreProperties(ignoreUnknown = true)
        record Data(String paymentKey, String orderId, String status, Long totalAmount, String lastTransactionKey,
                    OffsetDateTime approvedAt) {
        }
    }

    @PostMapping("/api/pg/webhooks")
    ResponseEntity<?> receive(@RequestHeader(value = "X-PG-Timestamp", required = false) String timestamp,
                              @RequestHeader(value = "X-PG-Signature", required = false) String signature,
                              @RequestBody String body) {
        PgWebhookSignature.Verdict verdict = webhookSignature.check(timestamp, signature, body);
        if (verdict != PgWebhookSignature.Verdict.VALID) {
            log.warn("Refused a PG callback: signature {}", verdict);
            return Problems.response(HttpStatus.UNAUTHORIZED, "INVALID_SIGNATURE",
                    "The callback signature is " + verdict.name().toLowerCase());
        }
        Callback callback;
        try {
            callback = json.readValue(body, Callback.class);
        } catch (JsonProcessingException e) {
            return Problems.response(HttpStatus.BAD_REQUEST, "MALFORMED_REQUEST", "The callback is not valid JSON");
        }
        if (callback.data() == null || callback.data().orderId() == null || callback.data().status() == null) {
            return Problems.response(HttpStatus.BAD_REQUEST, "VALIDATION_FAILED", "data.orderId and data.status are required");
        }
        OrderId orderId;
        try {
            orderId = new OrderId(UUID.fromString(callback.data().orderId()));
        } catch (IllegalArgumentException e) {
            return ResponseEntity.ok(Map.of("result", "IGNORED", "reason", "not one of our order ids"));
        }
        Callback.Data data = callback.data();
        return payments.findLatestByOrder(orderId)
                .filter(payment -> payment.paymentKey().equals(data.paymentKey()))
                .<ResponseEntity<?>>map(payment -> {
                    SyncPayment.SyncResult result = syncPayment.apply(payment.id(), new PgStatus(
                            PgState.parse(data.status()), data.paymentKey(), data.orderId(), data.totalAmount(),
                            data.lastTransactionKey(), data.approvedAt() == null ? null : data.approvedAt().toInstant()));
                    return ResponseEntity.ok(Map.of("result", result.action().name(), "paymentId", payment.id().toString()));
                })
                // Acknowledged so the PG stops retrying; the ledger audit still sees any approval we do not know.
                .orElseGet(() -> {
                    log.error("PG callback for order {} payment key {} matches no payment of ours", data.orderId(),
                            data.paymentKey());
                    return ResponseEntity.ok(Map.of("result", "IGNORED", "reason", "no matching payment"));
                });
    }
}
