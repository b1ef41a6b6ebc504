package dev.payments.drills.baseline;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "payments")
public class PaymentEntity {

    @Id
    private String id;
    private String orderId;
    private String paymentKey;
    private long amount;
    private String status;

    protected PaymentEntity() {
    }

    PaymentEntity(String id, String orderId, String paymentKey, long amount, String status) {
        this.id = id;
        this.orderId = orderId;
        this.paymentKey = paymentKey;
        this.amount = amount;
        this.status = status;
    }

    public String getId() {
        return id;
    }

    public String getOrderId() {
        return orderId;
    }

    public String getStatus() {
        return status;
    }
}
