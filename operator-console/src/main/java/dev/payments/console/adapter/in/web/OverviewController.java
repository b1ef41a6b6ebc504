package dev.payments.console.adapter.in.web;

import dev.payments.console.adapter.out.api.ApiProblem;
import dev.payments.console.adapter.out.api.OperatorApi;
import dev.payments.console.adapter.out.api.Service;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The first page: does the ledger identity hold (PG approvals = paid + cancellations + incidents, field report 000),
 * how many payments are not final and since when, the approval breaker, each outbox relay's lag, renewal runs in
 * progress, which incidents wait for a person (by age and by who holds them), and how many dead letters each consumer
 * group holds. Each panel is one read of an operator API; a panel the operator may not read, or whose service is down,
 * shows its problem and the others still show.
 */
@Controller
class OverviewController {

    private static final List<String> AGE_BUCKETS = List.of("under 1 h", "1 h to 1 day", "over 1 day");

    private final OperatorApi api;
    private final List<String> deadLetterGroups;
    private final Duration refresh;
    private final Clock clock;

    OverviewController(OperatorApi api, OverviewSettings settings, Clock clock) {
        this.api = api;
        this.deadLetterGroups = settings.deadLetterGroups();
        this.refresh = settings.refresh();
        this.clock = clock;
    }

    @GetMapping("/")
    String overview(Model model) {
        model.addAttribute("refreshSeconds", refresh.toSeconds());
        model.addAttribute("ledger", panel(() -> api.get(Service.RECONCILIATION, "/api/reconciliation/ledger")));
        model.addAttribute("summary", panel(() -> api.get(Service.RECONCILIATION, "/api/reconciliation/summary")));
        Panel payments = panel(this::payments);
        model.addAttribute("payments", payments);
        model.addAttribute("incidents", panel(this::incidents));
        Map<String, Panel> letters = new LinkedHashMap<>();
        for (String group : deadLetterGroups) {
            letters.put(group, panel(() -> api.get(Service.RECONCILIATION,
                    "/api/dead-letters/{group}?status=WAITING&size=1", group)));
        }
        model.addAttribute("deadLetters", letters);
        model.addAttribute("relays", relays(payments));
        return "overview";
    }

    /**
     * The relay lag of every service that publishes through an outbox: payment-service's from its overview (already
     * read above), order-service's from its own operator read. Each is measured in the service's database, so the
     * replica that answers need not be the one running the relay.
     */
    private Map<String, Relay> relays(Panel payments) {
        Map<String, Relay> relays = new LinkedHashMap<>();
        relays.put("payment-service", payments.problem() != null ? Relay.refused("payment.events", payments.problem())
                : Relay.of("payment.events", payments.data().get("relay"), clock.instant()));
        try {
            relays.put("order-service", Relay.of("order.events", api.get(Service.ORDER, "/api/outbox/backlog"),
                    clock.instant()));
        } catch (ApiProblem problem) {
            relays.put("order-service", Relay.refused("order.events", problem));
        }
        return relays;
    }

    /**
     * One relay's lag as shown: rows not yet known to be in Kafka and the oldest's age, "unknown" when the service
     * could not measure it, or the problem that kept it from answering.
     */
    record Relay(String topic, String unpublished, String lag, ApiProblem problem) {

        static Relay of(String topic, Object answer, Instant now) {
            if (!(answer instanceof Map<?, ?> relay) || relay.get("unpublished") == null) {
                return new Relay(topic, "unknown", "unknown", null);
            }
            return new Relay(topic, String.valueOf(relay.get("unpublished")), age(relay.get("oldest"), now), null);
        }

        static Relay refused(String topic, ApiProblem problem) {
            return new Relay(topic, "-", "-", problem);
        }
    }

    /**
     * payment-service's own figures: payments not final per state with the oldest's age, the approval breaker, its
     * relay's backlog (shown with the other relays) and renewal runs in progress.
     */
    private Map<String, Object> payments() {
        Instant now = clock.instant();
        Map<String, Object> overview = new LinkedHashMap<>(api.get(Service.PAYMENT, "/api/payments/overview"));
        List<Map<String, Object>> notFinal = new java.util.ArrayList<>();
        for (Map<String, Object> state : OperatorApi.items(overview, "notFinal")) {
            Map<String, Object> shown = new LinkedHashMap<>(state);
            shown.put("oldestAge", age(state.get("oldestRequestedAt"), now));
            notFinal.add(shown);
        }
        overview.put("notFinal", notFinal);
        return overview;
    }

    private static String age(Object since, Instant now) {
        return since == null ? "-" : Ages.of(Duration.between(Instant.parse(String.valueOf(since)), now));
    }

    /**
     * Open and acknowledged incidents, the oldest first, with their age: what a person still has to close; counted by
     * who holds them (who acknowledged, or nobody yet) and by age.
     */
    private Map<String, Object> incidents() {
        Instant now = clock.instant();
        List<Map<String, Object>> waiting = new java.util.ArrayList<>();
        for (String state : List.of("OPEN", "ACKNOWLEDGED")) {
            waiting.addAll(OperatorApi.items(api.get(Service.RECONCILIATION, "/api/incidents?state={state}", state), "incidents"));
        }
        waiting.sort(Comparator.comparing(incident -> String.valueOf(incident.get("openedAt"))));
        Optional<String> oldest = waiting.stream().map(incident -> (String) incident.get("openedAt")).findFirst();
        Map<String, Long> byOwner = new java.util.TreeMap<>();
        Map<String, Long> byAge = new LinkedHashMap<>();
        for (String bucket : AGE_BUCKETS) {
            byAge.put(bucket, 0L);
        }
        for (Map<String, Object> incident : waiting) {
            Object owner = incident.get("acknowledgedBy");
            byOwner.merge(owner == null ? "nobody yet" : String.valueOf(owner), 1L, Long::sum);
            Duration age = Duration.between(Instant.parse(String.valueOf(incident.get("openedAt"))), now);
            byAge.merge(age.toHours() < 1 ? AGE_BUCKETS.get(0) : age.toHours() < 24 ? AGE_BUCKETS.get(1) : AGE_BUCKETS.get(2),
                    1L, Long::sum);
        }
        return Map.of("waiting", waiting, "byOwner", byOwner, "byAge", byAge,
                "open", waiting.stream().filter(incident -> "OPEN".equals(incident.get("state"))).count(),
                "acknowledged", waiting.stream().filter(incident -> "ACKNOWLEDGED".equals(incident.get("state"))).count(),
                "oldestAge", oldest.map(openedAt -> Ages.of(Duration.between(Instant.parse(openedAt), now))).orElse("-"));
    }

    /** One panel's data or the problem that kept it empty. */
    record Panel(Map<String, Object> data, ApiProblem problem) {
    }

    private static Panel panel(java.util.function.Supplier<Map<String, Object>> read) {
        try {
            return new Panel(read.get(), null);
        } catch (ApiProblem problem) {
            return new Panel(Map.of(), problem);
        }
    }
}
