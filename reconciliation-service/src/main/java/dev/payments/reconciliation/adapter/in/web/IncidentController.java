package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.application.incidents.ChangeIncident;
import dev.payments.reconciliation.application.incidents.ListIncidents;
import dev.payments.reconciliation.application.shared.Refusal;
import dev.payments.reconciliation.domain.incidents.ResolutionOutcome;
import dev.payments.reconciliation.domain.incidents.IncidentId;
import dev.payments.reconciliation.domain.incidents.IncidentState;
import dev.payments.support.api.ProblemResponse;
import dev.payments.support.security.Caller;
import dev.payments.support.web.InputRules;
import dev.payments.support.web.Problems;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.UUID;

/**
 * Incidents for operators: list, take, close (scopes {@code reconciliation:read}, {@code incidents:write}). The operator
 * recorded as taking or closing one is the token's subject, never a name in the body. Nothing is ever deleted.
 */
@RestController
@RequestMapping("/api/incidents")
class IncidentController {

    private final ListIncidents listIncidents;
    private final ChangeIncident changeIncident;

    IncidentController(ListIncidents listIncidents, ChangeIncident changeIncident) {
        this.listIncidents = listIncidents;
        this.changeIncident = changeIncident;
    }

    /** @param state the state asked for, or null for all; newest first */
    record IncidentList(String state, int count, List<IncidentResponse> incidents) {
    }

    record AcknowledgeRequest(@Size(max = 2000) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String note) {
    }

    /**
     * @param resolution what was done about the money
     * @param outcome    what the operator established about the money; OTHER when absent (clients that send text
     *                   only). SETTLED_AUTOMATICALLY is the settler's and refused here.
     */
    record ResolveRequest(ResolutionOutcome outcome,
                          @NotBlank @Size(max = 2000) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String resolution) {
    }

    @GetMapping
    IncidentList list(@RequestParam(required = false) IncidentState state) {
        List<IncidentResponse> incidents = listIncidents.list(state).stream().map(IncidentResponse::of).toList();
        return new IncidentList(state == null ? null : state.name(), incidents.size(), incidents);
    }

    @ProblemResponse(status = 404, codes = "INCIDENT_NOT_FOUND")
    @GetMapping("/{id}")
    ResponseEntity<IncidentResponse> show(@PathVariable UUID id) {
        IncidentId incident = new IncidentId(id);
        return listIncidents.show(incident).map(IncidentResponse::of).map(ResponseEntity::ok)
                .orElseGet(() -> Problems.refusal(HttpStatus.NOT_FOUND, Refusal.INCIDENT_NOT_FOUND.name(),
                        "No incident " + incident));
    }

    @ProblemResponse(status = 404, codes = "INCIDENT_NOT_FOUND")
    @ProblemResponse(status = 409, codes = "ILLEGAL_INCIDENT_TRANSITION")
    @PostMapping("/{id}/acknowledge")
    ResponseEntity<IncidentResponse> acknowledge(@PathVariable UUID id, Caller operator,
                                                 @Valid @RequestBody(required = false) AcknowledgeRequest request) {
        return Answers.respond(changeIncident.acknowledge(new IncidentId(id), operator.subject(),
                request == null ? null : request.note()), IncidentResponse::of);
    }

    @ProblemResponse(status = 404, codes = "INCIDENT_NOT_FOUND")
    @ProblemResponse(status = 409, codes = "ILLEGAL_INCIDENT_TRANSITION")
    @PostMapping("/{id}/resolve")
    ResponseEntity<IncidentResponse> resolve(@PathVariable UUID id, Caller operator,
                                             @Valid @RequestBody ResolveRequest request) {
        ResolutionOutcome outcome = request.outcome() == null ? ResolutionOutcome.OTHER : request.outcome();
        if (outcome == ResolutionOutcome.SETTLED_AUTOMATICALLY) {
            return Problems.refusal(HttpStatus.BAD_REQUEST, Problems.VALIDATION_FAILED,
                    "outcome SETTLED_AUTOMATICALLY is the settler's; say what you established");
        }
        return Answers.respond(changeIncident.resolve(new IncidentId(id), operator.subject(), outcome,
                request.resolution()), IncidentResponse::of);
    }
}
