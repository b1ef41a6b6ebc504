package dev.payments.console.adapter.in.web;

import dev.payments.console.adapter.out.api.OperatorApi;
import dev.payments.console.adapter.out.api.Service;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import java.time.Instant;
import java.util.Map;

/**
 * The ledger identity over a window the operator names (reconciliation-service's audit of that window, scope
 * {@code ledger:audit}; not stored, an investigation): PG approvals = paid + renewals + cancellations + incidents + in
 * flight + unmatched, and the same in money, with each mismatching PG transaction. Its own page rather than the
 * overview's, which reloads itself: each audit reads the PG's whole listing for the window.
 */
@Controller
class LedgerController {

    private final OperatorApi api;

    LedgerController(OperatorApi api) {
        this.api = api;
    }

    @GetMapping("/ledger")
    String ledger(@RequestParam(required = false) String from, @RequestParam(required = false) String to, Model model) {
        boolean asked = from != null && !from.isBlank() || to != null && !to.isBlank();
        model.addAttribute("from", from == null ? "" : from.trim());
        model.addAttribute("to", to == null ? "" : to.trim());
        if (asked) {
            Instant start = PaymentsController.instant(from == null ? "" : from.trim(), "From");
            Instant end = PaymentsController.instant(to == null ? "" : to.trim(), "To");
            if (!start.isBefore(end)) {
                throw new Pages.BadInput("From must be before To");
            }
            Map<String, Object> audit = api.get(Service.RECONCILIATION, "/api/reconciliation/ledger",
                    Map.of("from", start.toString(), "to", end.toString()));
            model.addAttribute("audit", audit);
            model.addAttribute("mismatches", OperatorApi.items(audit, "mismatches"));
        }
        return "ledger";
    }
}
