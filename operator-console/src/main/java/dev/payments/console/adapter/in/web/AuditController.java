package dev.payments.console.adapter.in.web;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The audit trail: every operator action recorded by the services that have them (payment- and reconciliation-service,
 * each in its own database, written with the action's own transaction), from any client. Searched by who, which
 * object, result and time; both services' pages are merged newest first.
 */
@Controller
class AuditController {

    private static final Set<String> RESULTS = Set.of("DONE", "REFUSED", "FAILED");

    private final AuditTrail auditTrail;

    AuditController(AuditTrail auditTrail) {
        this.auditTrail = auditTrail;
    }

    @GetMapping("/audit")
    String audit(@RequestParam(required = false) String subject, @RequestParam(required = false) String objectId,
                 @RequestParam(required = false) String result, @RequestParam(required = false) String from,
                 @RequestParam(required = false) String to, @RequestParam(defaultValue = "0") int page, Model model) {
        if (result != null && !result.isBlank() && !RESULTS.contains(result)) {
            throw new Pages.BadInput("Result must be one of " + RESULTS);
        }
        if (page < 0 || page > 10_000) {
            throw new Pages.BadInput("Page must be between 0 and 10000");
        }
        Map<String, String> query = new LinkedHashMap<>();
        put(query, "subject", subject);
        put(query, "objectId", objectId);
        put(query, "result", result);
        put(query, "from", from);
        put(query, "to", to);
        AuditTrail.Trail trail = auditTrail.search(query, page);
        model.addAttribute("query", query);
        model.addAttribute("page", page);
        model.addAttribute("actions", trail.actions());
        model.addAttribute("hasMore", trail.hasMore());
        model.addAttribute("problems", trail.problems());
        return "audit";
    }

    private static void put(Map<String, String> query, String name, String value) {
        if (value != null && !value.isBlank()) {
            query.put(name, value.trim());
        }
    }
}
