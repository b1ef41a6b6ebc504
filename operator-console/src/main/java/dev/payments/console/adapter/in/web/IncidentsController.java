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

import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Incidents are money a person must settle by hand (a cancel that kept failing, a PG answer that does not match ours).
 * Acknowledging says "I am on it"; resolving says what the operator established and closes it, so the ledger identity
 * counts it. reconciliation-service records the operator (the token's subject) on each.
 */
@Controller
class IncidentsController {

    /** What a person can establish about the money of an incident (reconciliation-service stores it with the text). */
    static final Set<String> OUTCOMES = Set.of("REFUNDED_AT_PG", "CHARGE_CONFIRMED", "NO_MONEY_MOVED", "OTHER");
    private static final Set<String> STATES = Set.of("OPEN", "ACKNOWLEDGED", "RESOLVED");

    private final OperatorApi api;

    IncidentsController(OperatorApi api) {
        this.api = api;
    }

    @GetMapping("/incidents")
    String incidents(@RequestParam(required = false) String state, Model model) {
        Map<String, Object> list;
        if (state == null || state.isBlank()) {
            list = api.get(Service.RECONCILIATION, "/api/incidents");
        } else if (STATES.contains(state)) {
            list = api.get(Service.RECONCILIATION, "/api/incidents?state={state}", state);
        } else {
            throw new Pages.BadInput("State must be one of " + STATES);
        }
        model.addAttribute("state", state == null ? "" : state);
        model.addAttribute("incidents", OperatorApi.items(list, "incidents"));
        model.addAttribute("outcomes", OUTCOMES.stream().sorted().toList());
        return "incidents";
    }

    @PostMapping("/incidents/{id}/acknowledge")
    String acknowledge(@PathVariable String id, @RequestParam(required = false) String note, RedirectAttributes next) {
        UUID incident = Pages.id(id, "Incident id");
        String text = note == null || note.isBlank() ? null : Pages.requiredText(note, "A note");
        return act(next, () -> api.post(Service.RECONCILIATION, text == null ? Map.of() : Map.of("note", text),
                "/api/incidents/{id}/acknowledge", incident), "Acknowledged");
    }

    @PostMapping("/incidents/{id}/resolve")
    String resolve(@PathVariable String id, @RequestParam(required = false) String outcome,
                   @RequestParam(required = false) String comment, RedirectAttributes next) {
        UUID incident = Pages.id(id, "Incident id");
        if (outcome == null || !OUTCOMES.contains(outcome)) {
            throw new Pages.BadInput("An outcome is required: one of " + OUTCOMES.stream().sorted().toList());
        }
        String resolution = Pages.requiredText(comment, "A comment");
        return act(next, () -> api.post(Service.RECONCILIATION, Map.of("outcome", outcome, "resolution", resolution),
                "/api/incidents/{id}/resolve", incident), "Resolved");
    }

    private String act(RedirectAttributes next, Runnable action, String done) {
        try {
            action.run();
            next.addFlashAttribute("done", done);
        } catch (ApiProblem problem) {
            Pages.refused(next, problem);
        }
        return "redirect:/incidents";
    }
}
