package dev.payments.drills.baseline;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "notifications")
public class NotificationEntity {

    @Id
    @GeneratedValue
    private Long id;
    private String orderId;
    private String kind;

    protected NotificationEntity() {
    }

    NotificationEntity(String orderId, String kind) {
        this.orderId = orderId;
        this.kind = kind;
    }
}
