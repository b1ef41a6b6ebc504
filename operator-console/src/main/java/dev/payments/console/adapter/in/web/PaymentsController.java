package dev.payments.console.adapter.in.web;

import dev.payments.console.adapter.out.api.ApiProblem;
import dev.payments.console.adapter.out.api.OperatorApi;
import dev.payments.console.adapter.out.api.Service;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriComponentsBuilder;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Find payments (payment-service's operator search: any id, member, status, a time range; newest first, a page at a
 * time, or all of it as CSV), see one's timeline (reconciliation-service's projection of both topics: our events in
 * order, the settler's questions to the PG and its answers, the incidents on it, its refunds, the notifications the
 * customer was sent), ask the PG now (Sync now) and give money back: the whole payment (full refund) or a part of it,
 * each with a required reason.
 */
@Controller
class PaymentsController {

    static final int PAGE_SIZE = 20;
    /** payment-service's bounds for a refund (RefundRequest): an amount up to its MAX_AMOUNT, a reason of 150 characters. */
    static final long MAX_AMOUNT = 1_000_000_000L;
    static final int MAX_REFUND_REASON = 150;
    private static final List<String> STATUSES = List.of("REQUESTED", "APPROVED", "DECLINED", "FAILED", "UNKNOWN",
            "CANCEL_OWED", "CANCELED");
    /** A payment key or member id: printable, one line, as the services accept them. */
    private static final Pattern PRINTABLE = Pattern.compile("\\p{Graph}[\\p{Graph} ]{0,199}");

    private final OperatorApi api;
    private final AuditTrail auditTrail;

    PaymentsController(OperatorApi api, AuditTrail auditTrail) {
        this.api = api;
        this.auditTrail = auditTrail;
    }

    /** Newest first; with no filter, the newest payments of all. Each filter is checked before any call. */
    @GetMapping("/payments")
    String search(@RequestParam Map<String, String> parameters, Model model) {
        Map<String, String> filter = filter(parameters);
        Map<String, Object> query = new LinkedHashMap<>(filter);
        String after = parameters.get("after");
        String before = parameters.get("before");
        if (after != null && !after.isBlank()) {
            query.put("after", after.trim());
        } else if (before != null && !before.isBlank()) {
            query.put("before", before.trim());
        }
        int size = size(parameters.get("size"));
        query.put("size", size);
        Map<String, Object> page = api.get(Service.PAYMENT, "/api/payments", query);
        Map<String, String> paging = new LinkedHashMap<>(filter);
        if (size != PAGE_SIZE) {
            paging.put("size", String.valueOf(size));
        }
        model.addAttribute("filter", filter);
        model.addAttribute("statuses", STATUSES);
        model.addAttribute("results", OperatorApi.items(page, "payments"));
        model.addAttribute("nextUrl", page.get("next") == null ? null : link("/payments", paging, "after", page.get("next")));
        model.addAttribute("previousUrl", page.get("previous") == null ? null
                : link("/payments", paging, "before", page.get("previous")));
        model.addAttribute("exportUrl", link("/payments/export", filter, null, null));
        return "payments";
    }

    /** The CSV of the whole filter, passed through from payment-service as it is written (at most 10,000 rows). */
    @GetMapping("/payments/export")
    void export(@RequestParam Map<String, String> parameters, HttpServletResponse response) {
        Map<String, String> filter = filter(parameters);
        api.download(Service.PAYMENT, "/api/payments/export", filter, "text/csv", (type, disposition) -> {
            response.setContentType(type);
            response.setHeader("Content-Disposition", disposition == null ? "attachment; filename=\"payments.csv\"" : disposition);
            return response.getOutputStream();
        });
    }

    /** Rows a page: {@value #PAGE_SIZE} unless the operator asks for 1 to 100 (payment-service's bound). */
    private static int size(String value) {
        if (value == null || value.isBlank()) {
            return PAGE_SIZE;
        }
        try {
            int size = Integer.parseInt(value.trim());
            if (size >= 1 && size <= 100) {
                return size;
            }
        } catch (NumberFormatException notANumber) {
            // refused below, like any size out of bounds
        }
        throw new Pages.BadInput("Page size must be a number from 1 to 100");
    }

    /** The filters the operator typed, checked and normalised; blank ones are left out. */
    static Map<String, String> filter(Map<String, String> parameters) {
        Map<String, String> filter = new LinkedHashMap<>();
        present(parameters, "paymentId").ifPresent(v -> filter.put("paymentId", Pages.id(v, "Payment id").toString()));
        present(parameters, "orderId").ifPresent(v -> filter.put("orderId", Pages.id(v, "Order id").toString()));
        present(parameters, "paymentKey").ifPresent(v -> filter.put("paymentKey", printable(v, "Payment key")));
        present(parameters, "memberId").ifPresent(v -> filter.put("memberId", printable(v, "Member id")));
        present(parameters, "status").ifPresent(v -> {
            if (!STATUSES.contains(v)) {
                throw new Pages.BadInput("Status must be one of " + STATUSES);
            }
            filter.put("status", v);
        });
        present(parameters, "from").ifPresent(v -> filter.put("from", instant(v, "From").toString()));
        present(parameters, "to").ifPresent(v -> filter.put("to", instant(v, "To").toString()));
        return filter;
    }

    private static Optional<String> present(Map<String, String> parameters, String name) {
        String value = parameters.get(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    private static String printable(String value, String what) {
        if (!PRINTABLE.matcher(value).matches()) {
            throw new Pages.BadInput(what + " must be printable text of at most 200 characters");
        }
        return value;
    }

    /** An instant ({@code 2026-12-05T07:00:00Z}) or a date and time without a zone, read as UTC. */
    static Instant instant(String value, String what) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException notAnInstant) {
            try {
                return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException notALocalTime) {
                throw new Pages.BadInput(what + " must be a time such as 2026-12-05T07:00:00Z (UTC)");
            }
        }
    }

    private static String link(String path, Map<String, String> filter, String name, Object value) {
        UriComponentsBuilder link = UriComponentsBuilder.fromPath(path);
        filter.forEach(link::queryParam);
        if (name != null) {
            link.queryParam(name, value);
        }
        return link.encode().build().toUriString();
    }

    @GetMapping("/payments/{paymentId}")
    String payment(@PathVariable String paymentId, Model model) {
        UUID id = Pages.id(paymentId, "Payment id");
        Map<String, Object> payment = api.get(Service.RECONCILIATION, "/api/reconciliation/payments/{paymentId}", id);
        model.addAttribute("payment", payment);
        model.addAttribute("record", record(id));
        model.addAttribute("history", OperatorApi.items(payment, "history"));
        model.addAttribute("settlement", settlement(id));
        model.addAttribute("incidents", OperatorApi.items(api.get(Service.RECONCILIATION, "/api/incidents"), "incidents")
                .stream().filter(incident -> id.toString().equals(incident.get("paymentId"))).toList());
        model.addAttribute("refunds", refunds(id));
        model.addAttribute("notifications", notifications(String.valueOf(payment.get("orderId")), id));
        // One key per form as rendered: a double click or a resubmitted form sends the same key, and payment-service
        // answers it with the refund it already made instead of making a second one.
        model.addAttribute("refundKey", UUID.randomUUID());
        // What operators did to it (sync, refunds, its dead letters): the trail of every service, by the payment's id.
        model.addAttribute("audit", auditTrail.search(Map.of("objectId", id.toString()), 0));
        return "payment";
    }

    /** payment-service's refunds of the payment with what is refunded and what is left; the problem if it refused. */
    private Map<String, Object> refunds(UUID paymentId) {
        try {
            Map<String, Object> refunds = api.get(Service.PAYMENT, "/api/payments/{paymentId}/operator-refunds", paymentId);
            return Map.of("found", refunds, "list", OperatorApi.items(refunds, "refunds"));
        } catch (ApiProblem problem) {
            return Map.of("problem", problem);
        }
    }

    /** What notification-service sent the customer about this payment (of its order), or the problem it answered. */
    private Map<String, Object> notifications(String orderId, UUID paymentId) {
        try {
            return Map.of("list", api.list(Service.NOTIFICATION, "/api/operator-notifications",
                    Map.of("orderId", orderId, "paymentId", paymentId.toString())));
        } catch (ApiProblem problem) {
            return Map.of("problem", problem);
        }
    }

    /**
     * payment-service's own row (its search by id): the state the refund and Sync act on, ahead of the projection,
     * which follows the topics.
     */
    private Map<String, Object> record(UUID paymentId) {
        try {
            List<Map<String, Object>> found = OperatorApi.items(api.get(Service.PAYMENT, "/api/payments",
                    Map.of("paymentId", paymentId.toString())), "payments");
            return found.isEmpty() ? Map.of() : Map.of("found", found.get(0));
        } catch (ApiProblem problem) {
            return Map.of("problem", problem);
        }
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

    /** The whole payment back to the customer (payment-service's operator refund, scope payments:refund). */
    @PostMapping("/payments/{paymentId}/refund")
    String refund(@PathVariable String paymentId, @RequestParam(required = false) String reason, RedirectAttributes next) {
        UUID id = Pages.id(paymentId, "Payment id");
        String why = Pages.requiredText(reason, "A reason");
        try {
            next.addFlashAttribute("refundAnswer", api.post(Service.PAYMENT, Map.of("reason", why),
                    "/api/payments/{paymentId}/refund", id));
        } catch (ApiProblem problem) {
            Pages.refused(next, problem);
        }
        return "redirect:/payments/" + id;
    }

    /**
     * Part (or all) of the payment back to the customer: payment-service's operator refund (scope payments:refund),
     * with the amount and the required reason the operator typed and the Idempotency-Key the form was rendered with.
     */
    @PostMapping("/payments/{paymentId}/refunds")
    String refundPart(@PathVariable String paymentId, @RequestParam(required = false) String amount,
                      @RequestParam(required = false) String reason, @RequestParam(required = false) String idempotencyKey,
                      RedirectAttributes next) {
        UUID id = Pages.id(paymentId, "Payment id");
        long money = amount(amount);
        String why = Pages.requiredText(reason, "A reason");
        if (why.length() > MAX_REFUND_REASON) {
            throw new Pages.BadInput("A refund's reason must be at most " + MAX_REFUND_REASON + " characters");
        }
        UUID key = Pages.id(idempotencyKey == null ? "" : idempotencyKey, "The form's idempotency key");
        try {
            next.addFlashAttribute("partialRefundAnswer", api.postOnce(Service.PAYMENT, "console-" + key,
                    Map.of("amount", money, "reason", why),
                    "/api/payments/{paymentId}/operator-refunds", id));
        } catch (ApiProblem problem) {
            Pages.refused(next, problem);
        }
        return "redirect:/payments/" + id;
    }

    /** A whole number of the payment's currency above 0; whether it fits what is left is payment-service's to say. */
    static long amount(String value) {
        try {
            long amount = Long.parseLong(value == null ? "" : value.trim());
            if (amount > 0 && amount <= MAX_AMOUNT) {
                return amount;
            }
        } catch (NumberFormatException notANumber) {
            // refused below, like an amount out of bounds
        }
        throw new Pages.BadInput("An amount must be a whole number from 1 to " + MAX_AMOUNT);
    }
}
