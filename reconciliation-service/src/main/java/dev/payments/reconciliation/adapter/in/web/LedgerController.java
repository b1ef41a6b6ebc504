package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.application.ledger.AuditLedger;
import dev.payments.reconciliation.application.shared.PgUnavailableException;
import dev.payments.support.api.ProblemResponse;
import dev.payments.support.security.Caller;
import dev.payments.support.web.Problems;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.Instant;

/** The ledger audit: the last stored result, a fresh one, or an investigation over an explicit window. */
@RestController
@RequestMapping("/api/reconciliation/ledger")
class LedgerController {

    static final String AUDIT_SCOPE = "ledger:audit";

    private final AuditLedger auditLedger;

    LedgerController(AuditLedger auditLedger) {
        this.auditLedger = auditLedger;
    }

    /**
     * @param refresh run the regular audit now (stored, moves the gauge) instead of returning the last one
     * @param from    with {@code to}: audit this window only (not stored); ISO-8601
     */
    @ProblemResponse(status = 403, codes = "INSUFFICIENT_SCOPE")
    @ProblemResponse(status = 502, codes = "PG_LISTING_FAILED")
    @GetMapping
    ResponseEntity<LedgerResponse> ledger(Caller operator, @RequestParam(defaultValue = "false") boolean refresh,
                          @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant from,
                          @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant to) {
        if (refresh || from != null || to != null) {
            // Reading the stored audit is a read; running one reads the PG's whole listing: an action of its own.
            operator.requireScope(AUDIT_SCOPE);
        }
        if (from != null || to != null) {
            if (from == null || to == null || !from.isBefore(to)) {
                return Problems.refusal(HttpStatus.BAD_REQUEST, Problems.VALIDATION_FAILED,
                        "'from' and 'to' go together, and 'from' must be before 'to'");
            }
        }
        try {
            if (from != null) {
                return ResponseEntity.ok(LedgerResponse.of(auditLedger.run(from, to), false));
            }
            if (!refresh) {
                return ResponseEntity.ok(auditLedger.latest().map(report -> LedgerResponse.of(report, true))
                        .orElseGet(() -> LedgerResponse.of(auditLedger.run(), true)));
            }
            return ResponseEntity.ok(LedgerResponse.of(auditLedger.run(), true));
        } catch (PgUnavailableException e) {
            return Answers.pgUnreadable(e);
        }
    }
}
