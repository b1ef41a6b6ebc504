package dev.payments.payment.adapter.in.web;

import dev.payments.payment.application.PaymentSearch;
import dev.payments.payment.application.SearchPayments;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PaymentStatus;
import dev.payments.support.api.ProblemResponse;
import dev.payments.support.web.CsvLines;
import dev.payments.support.web.InputRules;
import dev.payments.support.web.Problems;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.springframework.format.annotation.DateTimeFormat;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponseException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * Operators' payment search (scope {@code payments:read}): any member's payments by payment id, order id, payment key,
 * member, status and a {@code requested_at} range, newest first, in keyset pages ({@code next} / {@code previous}
 * are opaque cursors); and the same filter as a CSV file of at most {@value SearchPayments#MAX_EXPORT_ROWS} rows. A
 * member's token carries no such scope and is refused by the chain (403 {@code INSUFFICIENT_SCOPE}).
 */
// No @Validated: Spring MVC's own method validation checks the parameters' constraints and answers 400 VALIDATION_FAILED.
@RestController
class PaymentSearchController {

    static final String CSV = "text/csv";
    private static final MediaType CSV_TYPE = MediaType.parseMediaType(CSV + ";charset=UTF-8");
    private static final String BACKWARDS = "'from' must be before 'to'";
    private static final List<String> COLUMNS = List.of("paymentId", "orderId", "memberId", "status", "amount",
            "currency", "purpose", "paymentKey", "pgTransactionKey", "customerNotice", "requestedAt", "approvedAt",
            "updatedAt", "failureCode");

    private final SearchPayments searchPayments;

    PaymentSearchController(SearchPayments searchPayments) {
        this.searchPayments = searchPayments;
    }

    /**
     * @param next     the cursor of the next (older) page, absent on the last page
     * @param previous the cursor of the previous (newer) page, absent on the first page
     */
    record PaymentPage(int size, List<PaymentView> payments, String next, String previous) {
    }

    @ApiResponse(responseCode = "200", description = "A page of payments, newest first",
            content = @Content(mediaType = "application/json", schema = @Schema(implementation = PaymentPage.class)))
    @ProblemResponse(status = 400, codes = "INVALID_CURSOR")
    @GetMapping("/api/payments")
    ResponseEntity<?> search(@RequestParam(required = false) UUID paymentId,
                             @RequestParam(required = false) UUID orderId,
                             @RequestParam(required = false) @Size(max = 200) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String paymentKey,
                             @RequestParam(required = false) @Size(max = 64) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String memberId,
                             @RequestParam(required = false) PaymentStatus status,
                             @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant from,
                             @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant to,
                             @RequestParam(required = false) @Size(max = 100) String after,
                             @RequestParam(required = false) @Size(max = 100) String before,
                             @RequestParam(defaultValue = "20") @Min(1) @Max(SearchPayments.MAX_PAGE_SIZE) int size) {
        if (backwards(from, to)) {
            return Problems.response(HttpStatus.BAD_REQUEST, Problems.VALIDATION_FAILED, BACKWARDS);
        }
        if (after != null && before != null) {
            return Problems.response(HttpStatus.BAD_REQUEST, Problems.VALIDATION_FAILED,
                    "Give 'after' (the next page) or 'before' (the previous page), not both");
        }
        PaymentSearch.Position position;
        try {
            position = after != null ? Cursor.decode(after) : before != null ? Cursor.decode(before) : null;
        } catch (IllegalArgumentException unreadable) {
            return Problems.response(HttpStatus.BAD_REQUEST, "INVALID_CURSOR",
                    "The page cursor is not one this API gave out; start again from the first page");
        }
        SearchPayments.Page page = searchPayments.page(
                criteria(paymentId, orderId, paymentKey, memberId, status, from, to), position,
                before != null ? SearchPayments.Direction.NEWER : SearchPayments.Direction.OLDER, size);
        return ResponseEntity.ok(new PaymentPage(size, page.payments().stream().map(PaymentView::of).toList(),
                Cursor.encode(page.next()), Cursor.encode(page.previous())));
    }

    /**
     * The CSV of everything the filter matches, newest first, written row by row as the database returns them. More
     * than {@value SearchPayments#MAX_EXPORT_ROWS} rows: 422 {@code EXPORT_TOO_LARGE} before the first byte; narrow
     * the filter (a time range).
     */
    @ApiResponse(responseCode = "200", description = "CSV: a header line, then one line per payment",
            content = @Content(mediaType = CSV))
    @ProblemResponse(status = 422, codes = "EXPORT_TOO_LARGE")
    @GetMapping("/api/payments/export")
    ResponseEntity<StreamingResponseBody> export(@RequestParam(required = false) UUID paymentId,
                             @RequestParam(required = false) UUID orderId,
                             @RequestParam(required = false) @Size(max = 200) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String paymentKey,
                             @RequestParam(required = false) @Size(max = 64) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String memberId,
                             @RequestParam(required = false) PaymentStatus status,
                             @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant from,
                             @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME) Instant to) {
        if (backwards(from, to)) {
            throw Problems.streamRefusal(HttpStatus.BAD_REQUEST, Problems.VALIDATION_FAILED, BACKWARDS);
        }
        PaymentSearch.Criteria criteria = criteria(paymentId, orderId, paymentKey, memberId, status, from, to);
        if (searchPayments.exceedsExportLimit(criteria)) {
            ErrorResponseException tooLarge = Problems.streamRefusal(HttpStatus.UNPROCESSABLE_ENTITY, "EXPORT_TOO_LARGE",
                    "More than " + SearchPayments.MAX_EXPORT_ROWS + " payments match; narrow the filter (a shorter time range)");
            tooLarge.getBody().setProperty("limit", SearchPayments.MAX_EXPORT_ROWS);
            throw tooLarge;
        }
        StreamingResponseBody body = out -> {
            Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
            writer.write(CsvLines.line(COLUMNS));
            try {
                searchPayments.export(criteria, payment -> {
                    try {
                        writer.write(CsvLines.line(values(payment)));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            writer.flush();
        };
        return ResponseEntity.ok().contentType(CSV_TYPE)
                .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"payments.csv\"")
                .body(body);
    }

    private static List<Object> values(Payment p) {
        return java.util.Arrays.asList(p.id().value(), p.orderId().value(), p.memberId().value(), p.status(),
                p.money().amount(), p.money().currency(), p.purpose(), p.paymentKey(), p.pgTransactionKey(),
                p.customerNotice(), p.requestedAt(), p.approvedAt(), p.updatedAt(), p.failureCode());
    }

    private static boolean backwards(Instant from, Instant to) {
        return from != null && to != null && !from.isBefore(to);
    }

    private static PaymentSearch.Criteria criteria(UUID paymentId, UUID orderId, String paymentKey, String memberId,
                                                   PaymentStatus status, Instant from, Instant to) {
        return new PaymentSearch.Criteria(paymentId == null ? null : new PaymentId(paymentId),
                orderId == null ? null : new OrderId(orderId), blankToNull(paymentKey),
                blankToNull(memberId) == null ? null : new MemberId(memberId.trim()), status, from, to);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }

    /** A page boundary as an opaque token: the row's {@code requested_at} (microseconds) and id, base64url. */
    static final class Cursor {

        private Cursor() {
        }

        static String encode(PaymentSearch.Position position) {
            if (position == null) {
                return null;
            }
            Instant at = position.requestedAt();
            String raw = at.getEpochSecond() + "." + at.getNano() + "." + position.paymentId();
            return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
        }

        /** @throws IllegalArgumentException for anything {@link #encode} did not write */
        static PaymentSearch.Position decode(String cursor) {
            String raw = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            String[] parts = raw.split("\\.", 3);
            if (parts.length != 3) {
                throw new IllegalArgumentException("not a cursor");
            }
            return new PaymentSearch.Position(Instant.ofEpochSecond(Long.parseLong(parts[0]), Long.parseLong(parts[1])),
                    UUID.fromString(parts[2]));
        }
    }
}
