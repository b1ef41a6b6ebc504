package dev.payments.notification.adapter.in.web;

import dev.payments.notification.application.ListNotifications;
import dev.payments.notification.domain.MemberId;
import dev.payments.notification.domain.OrderId;
import dev.payments.notification.domain.PaymentId;
import dev.payments.support.security.Caller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A member's notifications of their own order ({@code /api/notifications}, scope {@code member}) and any order's for an
 * operator ({@code /api/operator-notifications}, scope {@code notifications:read}): the payment page's "notifications
 * sent".
 */
@RestController
class NotificationController {

    private final ListNotifications listNotifications;

    NotificationController(ListNotifications listNotifications) {
        this.listNotifications = listNotifications;
    }

    /** The caller's notifications of the order, oldest first; an empty list for an order with none (yet) of theirs. */
    @GetMapping("/api/notifications")
    List<NotificationResponse> forOrder(@RequestParam UUID orderId, Caller member) {
        return listNotifications.forOrder(new OrderId(orderId), new MemberId(member.subject())).stream()
                .map(NotificationResponse::of).toList();
    }

    /** Every notification of the order, whoever the member, oldest first; of one payment when {@code paymentId} is given. */
    @GetMapping("/api/operator-notifications")
    List<NotificationResponse> forOperator(@RequestParam UUID orderId, @RequestParam(required = false) UUID paymentId) {
        return listNotifications.forOperator(new OrderId(orderId), Optional.ofNullable(paymentId).map(PaymentId::new))
                .stream().map(NotificationResponse::of).toList();
    }
}
