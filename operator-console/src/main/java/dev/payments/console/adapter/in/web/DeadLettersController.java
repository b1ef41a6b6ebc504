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
import java.util.Set;
import java.util.UUID;

/**
 * Dead letters per consumer group (reconciliation-service's list) and their re-drive: one letter, or every letter of
 * an order in the order they first failed, handed back to the group through its re-drive topic. The service keeps its
 * safety checks (a letter re-driven before is not sent twice; an unknown group is refused) and records the operator;
 * the console requires a reason, which the audit trail keeps with the action.
 */
@Controller
class DeadLettersController {

    static final int PAGE_SIZE = 50;
    private static final Set<String> STATUSES = Set.of("WAITING", "REDRIVEN");

    private final OperatorApi api;
    private final List<String> groups;

    DeadLettersController(OperatorApi api, OverviewSettings settings) {
        this.api = api;
        this.groups = settings.deadLetterGroups();
    }

    @GetMapping("/dead-letters")
    String letters(@RequestParam(required = false) String group, @RequestParam(required = false) String status,
                   @RequestParam(defaultValue = "0") int page, Model model) {
        String shown = group == null || group.isBlank() ? groups.get(0) : group(group);
        String state = status == null ? "WAITING" : status;
        if (!state.isEmpty() && !STATUSES.contains(state)) {
            throw new Pages.BadInput("Status must be WAITING, REDRIVEN or empty (every letter)");
        }
        if (page < 0 || page > 10_000) {
            throw new Pages.BadInput("Page must be between 0 and 10000");
        }
        Map<String, Object> list = state.isEmpty()
                ? api.get(Service.RECONCILIATION, "/api/dead-letters/{group}?page={page}&size={size}", shown, page, PAGE_SIZE)
                : api.get(Service.RECONCILIATION, "/api/dead-letters/{group}?status={status}&page={page}&size={size}",
                shown, state, page, PAGE_SIZE);
        model.addAttribute("groups", groups);
        model.addAttribute("group", shown);
        model.addAttribute("status", state);
        model.addAttribute("page", page);
        model.addAttribute("list", list);
        model.addAttribute("letters", OperatorApi.items(list, "letters"));
        Object total = list.get("total");
        model.addAttribute("hasMore", total instanceof Number n && (long) (page + 1) * PAGE_SIZE < n.longValue());
        return "dead-letters";
    }

    @PostMapping("/dead-letters/{group}/{eventId}/redrive")
    String redrive(@PathVariable String group, @PathVariable String eventId, @RequestParam(required = false) String reason,
                   RedirectAttributes next) {
        String known = group(group);
        UUID letter = Pages.id(eventId, "Event id");
        return redrive(known, reason, next, why -> {
            Map<String, Object> answer = api.post(Service.RECONCILIATION, Map.of("reason", why),
                    "/api/dead-letters/{group}/{eventId}/redrive", known, letter);
            return Boolean.TRUE.equals(answer.get("redriven"))
                    ? "Re-driven to " + known + ": event " + letter
                    : "Not sent: event " + letter + " was re-driven before by " + answer.get("redrivenBy") + " at "
                    + answer.get("redrivenAt");
        });
    }

    @PostMapping("/dead-letters/{group}/orders/{orderId}/redrive")
    String redriveOrder(@PathVariable String group, @PathVariable String orderId,
                        @RequestParam(required = false) String reason, RedirectAttributes next) {
        String known = group(group);
        UUID order = Pages.id(orderId, "Order id");
        return redrive(known, reason, next, why -> {
            Map<String, Object> answer = api.post(Service.RECONCILIATION, Map.of("reason", why),
                    "/api/dead-letters/{group}/orders/{orderId}/redrive", known, order);
            return "Re-driven to " + known + ": " + answer.get("redriven") + " of "
                    + OperatorApi.items(answer, "letters").size() + " letters of order " + order
                    + " (the others were re-driven before)";
        });
    }

    /** A re-drive with its required reason; what it did, or the problem it met, shown on the group's page. */
    private String redrive(String group, String reason, RedirectAttributes next,
                           java.util.function.Function<String, String> send) {
        String why = Pages.requiredText(reason, "A reason");
        try {
            next.addFlashAttribute("done", send.apply(why));
        } catch (ApiProblem problem) {
            Pages.refused(next, problem);
        }
        next.addAttribute("group", group);
        return "redirect:/dead-letters";
    }

    /** One of the groups the console knows; anything else is refused before a call (the service would refuse it too). */
    private String group(String group) {
        String name = group.trim();
        if (!groups.contains(name)) {
            throw new Pages.BadInput("Consumer group must be one of " + groups);
        }
        return name;
    }
}
