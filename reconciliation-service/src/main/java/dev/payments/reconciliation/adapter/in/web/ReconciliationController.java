package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.application.queries.ShowOrder;
import dev.payments.reconciliation.application.queries.ShowPayment;
import dev.payments.reconciliation.application.queries.SummarizeBooks;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import dev.payments.support.api.ProblemResponse;
import dev.payments.support.web.Problems;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.UUID;

/** What reconciliation believes happened, read from its own projection only. */
@RestController
@RequestMapping("/api/reconciliation")
class ReconciliationController {

    private final ShowPayment showPayment;
    private final ShowOrder showOrder;
    private final SummarizeBooks summarizeBooks;

    ReconciliationController(ShowPayment showPayment, ShowOrder showOrder, SummarizeBooks summarizeBooks) {
        this.showPayment = showPayment;
        this.showOrder = showOrder;
        this.summarizeBooks = summarizeBooks;
    }

    @ProblemResponse(status = 404, codes = "PAYMENT_NOT_FOUND")
    @GetMapping("/payments/{paymentId}")
    ResponseEntity<PaymentResponse> payment(@PathVariable UUID paymentId) {
        return showPayment.show(new PaymentId(paymentId)).map(PaymentResponse::of).map(ResponseEntity::ok)
                .orElseGet(() -> Problems.refusal(HttpStatus.NOT_FOUND, "PAYMENT_NOT_FOUND",
                        "No event of payment " + paymentId + " has been seen"));
    }

    @ProblemResponse(status = 404, codes = "ORDER_NOT_FOUND")
    @GetMapping("/orders/{orderId}")
    ResponseEntity<OrderResponse> order(@PathVariable UUID orderId) {
        return showOrder.show(new OrderId(orderId)).map(OrderResponse::of).map(ResponseEntity::ok)
                .orElseGet(() -> Problems.refusal(HttpStatus.NOT_FOUND, "ORDER_NOT_FOUND",
                        "No event of order " + orderId + " or of its payments has been seen"));
    }

    @GetMapping("/summary")
    SummaryResponse summary() {
        return SummaryResponse.of(summarizeBooks.summarize());
    }
}
