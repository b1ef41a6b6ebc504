package dev.payments.drills.baseline;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.util.Map;
import java.util.UUID;

/**
 * The same paths and bodies the drills' load generator speaks to our services ({@code /api/orders},
 * {@code /api/payments/confirm}), without authentication: the drill's member tokens are sent and ignored.
 */
@RestController
public class BaselineController {

    private static final Logger log = LoggerFactory.getLogger(BaselineController.class);

    private final OrderRepository orders;
    private final PaymentRepository payments;
    private final Approval approval;
    private final MeterRegistry meters;

    public BaselineController(OrderRepository orders, PaymentRepository payments, Approval approval,
                              MeterRegistry meters) {
        this.orders = orders;
        this.payments = payments;
        this.approval = approval;
        this.meters = meters;
    }

    public record OrderRequest(long amount, String currency, String orderName) {
    }

    public record ConfirmRequest(String orderId, String paymentKey, long amount) {
    }

    @PostMapping("/api/orders")
    public ResponseEntity<Map<String, Object>> place(@RequestBody OrderRequest request) {
        OrderEntity order = orders.save(new OrderEntity(UUID.randomUUID().toString(), request.amount()));
        return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("orderId", order.getId(),
                "status", order.getStatus()));
    }

    @GetMapping("/api/orders/{orderId}")
    public ResponseEntity<Map<String, Object>> order(@PathVariable String orderId) {
        return orders.findById(orderId).map(o -> {
            Map<String, Object> body = new java.util.HashMap<>(Map.of("orderId", o.getId(), "status", o.getStatus()));
            if (o.getPaymentId() != null) {
                body.put("paymentId", o.getPaymentId());
            }
            return ResponseEntity.ok(body);
        }).orElse(ResponseEntity.notFound().build());
    }

    @GetMapping("/api/payments/{paymentId}")
    public ResponseEntity<Map<String, Object>> payment(@PathVariable String paymentId) {
        return payments.findById(paymentId).map(p -> ResponseEntity.ok(Map.<String, Object>of("paymentId", p.getId(),
                "orderId", p.getOrderId(), "status", p.getStatus()))).orElse(ResponseEntity.notFound().build());
    }

    /** 200 once approved and saved; 500 with 000's label otherwise (db_failed: the PG approved, the save died). */
    @PostMapping("/api/payments/confirm")
    public ResponseEntity<Map<String, Object>> confirm(@RequestBody ConfirmRequest request) {
        String outcome = "failed";
        try {
            String paymentId = approval.confirm(request.orderId(), request.paymentKey(), request.amount());
            outcome = "approved";
            return ResponseEntity.ok(Map.of("paymentId", paymentId, "status", "APPROVED"));
        } catch (OrderNotFoundException e) {
            outcome = "order_not_found";
            return ResponseEntity.status(HttpStatus.NOT_FOUND).body(Map.of("code", "ORDER_NOT_FOUND"));
        } catch (DbFailedException e) {
            outcome = "db_failed";
            log.warn("approval failed after the PG approved", e);
            return ResponseEntity.internalServerError().body(Map.of("code", "db_failed"));
        } catch (RuntimeException e) {
            log.warn("approval failed", e);
            return ResponseEntity.internalServerError().body(Map.of("code", "failed"));
        } finally {
            meters.counter("payment.approval", "outcome", outcome).increment();
        }
    }
}
