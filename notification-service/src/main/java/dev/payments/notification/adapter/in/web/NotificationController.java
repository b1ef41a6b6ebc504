package dev.payments.notification.adapter.in.web;

import dev.payments.notification.application.ListNotifications;
import dev.payments.notification.domain.MemberId;
import dev.payments.notification.domain.OrderId;
import dev.payments.support.security.Caller;
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

    /** The caller's notifications of the order, oldest first; an empty list for an order with none (yet) of theirs. */
    @GetMapping
    List<NotificationResponse> forOrder(@RequestParam UUID orderId, Caller member) {
        return listNotifications.forOrder(new OrderId(orderId), new MemberId(member.subject())).stream()
                .map(NotificationResponse::of).toList();
    }
}
