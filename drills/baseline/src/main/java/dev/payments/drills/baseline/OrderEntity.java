package dev.payments.drills.baseline;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "orders")
public class OrderEntity {

    @Id
    private String id;
    private long amount;
    private String status;
    private String paymentId;

    protected OrderEntity() {
    }

    OrderEntity(String id, long amount) {
        this.id = id;
        this.amount = amount;
        this.status = "CREATED";
    }

    public String getId() {
        return id;
    }

    public long getAmount() {
        return amount;
    }

    public String getStatus() {
        return status;
    }

    public String getPaymentId() {
        return paymentId;
    }

    void setStatus(String status) {
        this.status = status;
    }

    void setPaymentId(String paymentId) {
        this.paymentId = paymentId;
    }
}
