package dev.payments.console.adapter.in.web;

import dev.payments.console.adapter.out.api.ApiProblem;
import dev.payments.console.adapter.out.api.OperatorApi;
import dev.payments.console.adapter.out.api.Service;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Find a payment by its id or its order's id (reconciliation-service's projection of both topics), see its timeline
 * (our events in order, the settler's questions to the PG and its answers, the incidents on it) and ask the PG now
 * (payment-service's sync, which settles the payment by the same rules as the settler and answers what the PG said).
 */
@Controller
class PaymentsController {

    private final OperatorApi api;
    private final AuditTrail auditTrail;

    PaymentsController(OperatorApi api, AuditTrail auditTrail) {
        this.api = api;
        this.auditTrail = auditTrail;
    }

    @GetMapping("/payments")
    String search(@RequestParam(required = false) String paymentId, @RequestParam(required = false) String orderId,
                  Model model) {
        if (paymentId != null && !paymentId.isBlank()) {
            return "redirect:/payments/" + Pages.id(paymentId, "Payment id");
        }
        if (orderId != null && !orderId.isBlank()) {
            UUID order = Pages.id(orderId, "Order id");
            Map<String, Object> found = api.get(Service.RECONCILIATION, "/api/reconciliation/orders/{orderId}", order);
            model.addAttribute("order", found);
            model.addAttribute("payments", OperatorApi.items(found, "payments"));
        }
        return "payments";
    }

    @GetMapping("/payments/{paymentId}")
    String payment(@PathVariable String paymentId, Model model) {
        UUID id = Pages.id(paymentId, "Payment id");
        Map<String, Object> payment = api.get(Service.RECONCILIATION, "/api/reconciliation/payments/{paymentId}", id);
        model.addAttribute("payment", payment);
        model.addAttribute("history", OperatorApi.items(payment, "history"));
        model.addAttribute("settlement", settlement(id));
        model.addAttribute("incidents", OperatorApi.items(api.get(Service.RECONCILIATION, "/api/incidents"), "incidents")
                .stream().filter(incident -> id.toString().equals(incident.get("paymentId"))).toList());
        // What operators did to it (sync, refunds, its dead letters): the trail of every service, by the payment's id.
        model.addAttribute("audit", auditTrail.search(Map.of("objectId", id.toString()), 0));
        return "payment";
    }

    /** The settler's attempts (each a question to the PG and its answer); none when the payment never needed one. */
    private Map<String, Object> settlement(UUID paymentId) {
        try {
            Map<String, Object> settlement = api.get(Service.RECONCILIATION, "/api/reconciliation/settlements/{paymentId}", paymentId);
            return Map.of("found", settlement, "attempts", OperatorApi.items(settlement, "attemptHistory"));
        } catch (ApiProblem problem) {
            if (problem.status() == 404) {
                return Map.of("attempts", List.of());
            }
            throw problem;
        }
    }

    @PostMapping("/payments/{paymentId}/sync")
    String sync(@PathVariable String paymentId, RedirectAttributes next) {
        UUID id = Pages.id(paymentId, "Payment id");
        try {
            next.addFlashAttribute("syncAnswer", api.post(Service.PAYMENT, null, "/api/payments/{paymentId}/sync", id));
        } catch (ApiProblem problem) {
            Pages.refused(next, problem);
        }
        return "redirect:/payments/" + id;
    }
}
