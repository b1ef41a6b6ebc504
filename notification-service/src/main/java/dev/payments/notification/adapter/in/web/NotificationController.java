package dev.payments.notification.adapter.in.web;

import dev.payments.notification.application.ListNotifications;
import dev.payments.notification.domain.OrderId;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.UUID;

@RestController
@RequestMapping("/api/notifications")
class NotificationController {

    private final ListNotifications listNotifications;

    NotificationController(ListNotifications listNotifications) {
        this.listNotifications = listNotifications;
    }

    /** The order's notifications, oldest first; an empty list for an order with none (yet). */
    @GetMapping
    List<NotificationResponse> forOrder(@RequestParam UUID orderId) {
        return listNotifications.forOrder(new OrderId(orderId)).stream().map(NotificationResponse::of).toList();
    }
}
