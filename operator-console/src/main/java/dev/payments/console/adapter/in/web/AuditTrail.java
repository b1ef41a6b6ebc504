package dev.payments.console.adapter.in.web;

import dev.payments.console.adapter.out.api.ApiProblem;
import dev.payments.console.adapter.out.api.OperatorApi;
import dev.payments.console.adapter.out.api.Service;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads the operator audit trail of every service that keeps one and merges it, newest first. */
@Component
class AuditTrail {

    static final int PAGE_SIZE = 50;

    private final OperatorApi api;

    AuditTrail(OperatorApi api) {
        this.api = api;
    }

    /** The services' records matching the query, newest first; a service that refuses or is down is named, not hidden. */
    Trail search(Map<String, String> query, int page) {
        List<Map<String, Object>> actions = new ArrayList<>();
        List<ApiProblem> problems = new ArrayList<>();
        boolean hasMore = false;
        for (Service service : Service.values()) {
            Map<String, Object> parameters = new LinkedHashMap<>(query);
            parameters.put("page", page);
            parameters.put("size", PAGE_SIZE);
            try {
                Map<String, Object> answer = api.get(service, "/api/operator-actions", parameters);
                for (Map<String, Object> action : OperatorApi.items(answer, "actions")) {
                    Map<String, Object> shown = new LinkedHashMap<>(action);
                    shown.put("service", service.name().toLowerCase());
                    actions.add(shown);
                }
                hasMore |= Boolean.TRUE.equals(answer.get("hasMore"));
            } catch (ApiProblem problem) {
                problems.add(problem);
            }
        }
        actions.sort(Comparator.comparing((Map<String, Object> action) -> String.valueOf(action.get("at"))).reversed());
        return new Trail(actions, hasMore, problems);
    }

    record Trail(List<Map<String, Object>> actions, boolean hasMore, List<ApiProblem> problems) {
    }

}
