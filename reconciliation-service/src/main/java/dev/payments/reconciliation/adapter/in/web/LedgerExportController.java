package dev.payments.reconciliation.adapter.in.web;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.reconciliation.application.ledger.AuditLedger;
import dev.payments.reconciliation.application.shared.PgUnavailableException;
import dev.payments.reconciliation.domain.ledger.LedgerAudit;
import dev.payments.reconciliation.domain.ledger.LedgerMoney;
import dev.payments.reconciliation.domain.ledger.LedgerReport;
import dev.payments.reconciliation.domain.ledger.MismatchReason;
import dev.payments.reconciliation.domain.ledger.PgTransaction;
import dev.payments.support.api.ProblemResponse;
import dev.payments.support.web.CsvLines;
import dev.payments.support.web.Problems;
import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The finance export (scope {@code ledger:export}): every PG transaction of a period with what it was matched to,
 * and the ledger identity's totals - the settlement report a finance team reconciles against the PG's statement
 * (docs/reconciliation.md, "Finance export"). CSV or JSON by {@code Accept}; the rows are written to the response as
 * the audit matches them, never gathered into one document.
 */
@RestController
@RequestMapping("/api/reconciliation/ledger/export")
class LedgerExportController {

    static final String CSV = "text/csv";
    private static final MediaType CSV_TYPE = MediaType.parseMediaType(CSV + ";charset=UTF-8");
    private static final List<String> COLUMNS = List.of("transactionKey", "type", "transactedAt", "orderId",
            "paymentKey", "amount", "currency", "matchedTo", "reason", "cancels", "paymentId", "paymentStatus",
            "orderStatus", "incidentId");

    private final AuditLedger auditLedger;
    private final ObjectMapper json;

    LedgerExportController(AuditLedger auditLedger, ObjectMapper json) {
        this.auditLedger = auditLedger;
        this.json = json;
    }

    /**
     * One PG transaction. {@code matchedTo} for an approval: PAID (a PAID order), RENEWAL (an approved renewal charge),
     * CANCELLATION (the PG returned the
     * money and our books say so), INCIDENT (a human is on it), IN_FLIGHT (younger than the settle deadline, or being
     * settled) or MISMATCH; {@code reason} says why an approval is not simply PAID or a cancellation. For a cancel:
     * the match of the approval it returned ({@code cancels}), empty when the period holds no such approval.
     */
    record Row(String transactionKey, String type, Instant transactedAt, String orderId, String paymentKey,
               long amount, String currency, String matchedTo, String reason, String cancels, UUID paymentId,
               String paymentStatus, String orderStatus, UUID incidentId) {

        static Row of(LedgerAudit.Line line) {
            PgTransaction t = line.transaction();
            return new Row(t.transactionKey(), t.type().name(), t.transactedAt(), t.orderId(), t.paymentKey(),
                    t.amount(), t.currency(), line.match() == null ? null : line.match().name(),
                    line.reason() == null ? null : line.reason().name(), line.cancels(),
                    line.payment() == null ? null : line.payment().paymentId().value(),
                    line.payment() == null ? null : line.payment().status().name(),
                    line.order() == null ? null : line.order().status().name(),
                    line.incident() == null ? null : line.incident().id().value());
        }

        List<Object> values() {
            return List.of(text(transactionKey), type, transactedAt, text(orderId), text(paymentKey), amount,
                    text(currency), text(matchedTo), text(reason), text(cancels), text(paymentId),
                    text(paymentStatus), text(orderStatus), text(incidentId));
        }

        private static Object text(Object value) {
            return value == null ? "" : value;
        }
    }

    /**
     * The identity's terms over the period: {@code pgApprovals = paidOrders + renewals + cancellations + ...}, then the
     * same in money: {@code pgApprovedAmount - pgRefundedAmount = paidAmount - refundedAmount + incidentAmount +
     * inFlightAmount + unmatchedAmount} (a partial refund is a CANCEL row of its amount, matched to its approval).
     */
    record Totals(Instant from, Instant to, long pgApprovals, long pgCancels, long paidOrders, long renewals,
                  long cancellations,
                  long incidents, long inFlight, long unmatched, long missingAtPg, boolean holds,
                  long pgApprovedAmount, long pgRefundedAmount, long paidAmount, long refundedAmount,
                  long incidentAmount, long inFlightAmount, long unmatchedAmount, boolean moneyHolds) {

        static Totals of(LedgerReport r) {
            LedgerMoney m = r.money() == null ? LedgerMoney.NONE : r.money();
            return new Totals(r.from(), r.to(), r.pgApprovals(), r.pgCancels(), r.paidOrders(), r.renewals(),
                    r.cancellations(),
                    r.incidents(), r.inFlight(), r.unmatchedApprovals(),
                    r.mismatches().stream().filter(x -> x.reason() == MismatchReason.NO_PG_APPROVAL).count(),
                    r.holds(), m.pgApproved(), m.pgRefunded(), m.ourPaid(), m.ourRefunded(), m.incidents(),
                    m.inFlight(), m.unmatched(), m.holds());
        }
    }

    /**
     * CSV: a header, one line per transaction, then the totals as two {@code #}-comment lines (names, values) after a
     * blank line. JSON: {@code {from, to, transactions: [...], totals: {...}}}.
     */
    @ProblemResponse(status = 400, codes = "VALIDATION_FAILED")
    @ProblemResponse(status = 502, codes = "PG_LISTING_FAILED")
    @GetMapping(produces = {MediaType.APPLICATION_JSON_VALUE, CSV})
    ResponseEntity<StreamingResponseBody> export(
            @RequestParam @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant from,
            @RequestParam @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant to,
            @RequestHeader(value = HttpHeaders.ACCEPT, required = false) String accept) {
        if (!from.isBefore(to)) {
            throw Problems.streamRefusal(HttpStatus.BAD_REQUEST, Problems.VALIDATION_FAILED, "'from' must be before 'to'");
        }
        AuditLedger.Export export;
        try {
            export = auditLedger.export(from, to);
        } catch (PgUnavailableException e) {
            throw Problems.streamRefusal(HttpStatus.BAD_GATEWAY, Answers.PG_LISTING_FAILED,
                    Answers.pgUnreadableDetail(e));
        }
        boolean csv = prefersCsv(accept);
        String file = "ledger-" + from + "-" + to + (csv ? ".csv" : ".json");
        return ResponseEntity.ok()
                .contentType(csv ? CSV_TYPE : MediaType.APPLICATION_JSON)
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"" + file.replace(':', '-') + "\"")
                .body(csv ? out -> writeCsv(export, out) : out -> writeJson(export, from, to, out));
    }

    /** The first of CSV and JSON the caller accepts, by quality; JSON when it accepts anything. */
    private static boolean prefersCsv(String accept) {
        if (accept == null || accept.isBlank()) {
            return false;
        }
        List<MediaType> accepted = MediaType.parseMediaTypes(accept);
        MediaType.sortBySpecificityAndQuality(accepted);
        for (MediaType type : accepted) {
            if (type.isCompatibleWith(MediaType.APPLICATION_JSON) && !type.isWildcardType()) {
                return false;
            }
            if (type.isCompatibleWith(CSV_TYPE) && !type.isWildcardType()) {
                return true;
            }
        }
        return false;
    }

    static void writeCsv(AuditLedger.Export export, OutputStream out) throws IOException {
        Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
        writer.write(String.join(",", COLUMNS) + "\r\n");
        LedgerReport report;
        try {
            report = export.write(line -> {
                try {
                    writer.write(csvLine(Row.of(line).values()));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        Totals totals = Totals.of(report);
        writer.write("\r\n# from,to,pgApprovals,pgCancels,paidOrders,renewals,cancellations,incidents,inFlight,unmatched,"
                + "missingAtPg,holds,pgApprovedAmount,pgRefundedAmount,paidAmount,refundedAmount,incidentAmount,"
                + "inFlightAmount,unmatchedAmount,moneyHolds\r\n");
        writer.write("# " + csvLine(List.of(totals.from(), totals.to(), totals.pgApprovals(), totals.pgCancels(),
                totals.paidOrders(), totals.renewals(), totals.cancellations(), totals.incidents(), totals.inFlight(), totals.unmatched(),
                totals.missingAtPg(), totals.holds(), totals.pgApprovedAmount(), totals.pgRefundedAmount(),
                totals.paidAmount(), totals.refundedAmount(), totals.incidentAmount(), totals.inFlightAmount(),
                totals.unmatchedAmount(), totals.moneyHolds())));
        writer.flush();
    }

    void writeJson(AuditLedger.Export export, Instant from, Instant to, OutputStream out) throws IOException {
        try (JsonGenerator generator = json.getFactory().createGenerator(out)) {
            generator.writeStartObject();
            generator.writeObjectField("from", from);
            generator.writeObjectField("to", to);
            generator.writeArrayFieldStart("transactions");
            LedgerReport report;
            try {
                report = export.write(line -> {
                    try {
                        generator.writeObject(Row.of(line));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            generator.writeEndArray();
            generator.writeObjectField("totals", Totals.of(report));
            generator.writeEndObject();
        }
    }

    private static String csvLine(List<Object> values) {
        return CsvLines.line(values);
    }
}
