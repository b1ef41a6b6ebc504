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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One order's replay (reconciliation-service, docs/runbooks/replay.md): first where every consumer group stands with
 * each of the order's events (the read-only dry run), then, for one group, a dry run of the replay itself or the
 * replay: the order's events handed to the group through its re-drive topic, its inbox skipping what it already
 * applied. The console requires a reason, which the audit trail keeps with the action ("dry run: ..." for a dry run).
 */
@Controller
class ReplayController {

    private final OperatorApi api;
    private final List<String> groups;

    ReplayController(OperatorApi api, OverviewSettings settings) {
        this.api = api;
        this.groups = settings.deadLetterGroups();
    }

    @GetMapping("/replay")
    String replay(@RequestParam(required = false) String orderId, Model model) {
        model.addAttribute("groups", groups);
        if (orderId != null && !orderId.isBlank()) {
            UUID order = Pages.id(orderId, "Order id");
            Map<String, Object> report = api.get(Service.RECONCILIATION, "/api/replay/orders/{orderId}", order);
            model.addAttribute("orderId", order.toString());
            model.addAttribute("report", report);
            model.addAttribute("timeline", OperatorApi.items(report, "timeline"));
        }
        return "replay";
    }

    @PostMapping("/replay/orders/{orderId}")
    String run(@PathVariable String orderId, @RequestParam(required = false) String group,
               @RequestParam(required = false) String reason, @RequestParam(defaultValue = "true") boolean dryRun,
               RedirectAttributes next) {
        UUID order = Pages.id(orderId, "Order id");
        if (group == null || !groups.contains(group)) {
            throw new Pages.BadInput("Consumer group must be one of " + groups);
        }
        String why = Pages.requiredText(reason, "A reason");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("group", group);
        body.put("dryRun", dryRun);
        body.put("reason", why);
        try {
            next.addFlashAttribute("replayResult", api.post(Service.RECONCILIATION, body, "/api/replay/orders/{orderId}", order));
        } catch (ApiProblem problem) {
            Pages.refused(next, problem);
        }
        next.addAttribute("orderId", order);
        return "redirect:/replay";
    }
}
