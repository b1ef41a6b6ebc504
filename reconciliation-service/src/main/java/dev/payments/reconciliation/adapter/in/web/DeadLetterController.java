package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.application.operations.DeadLetter;
import dev.payments.reconciliation.application.operations.DeadLetterPage;
import dev.payments.reconciliation.application.operations.ListDeadLetters;
import dev.payments.reconciliation.application.operations.RecordRef;
import dev.payments.reconciliation.application.operations.RedriveDeadLetters;
import dev.payments.support.api.ProblemResponse;
import dev.payments.support.security.Caller;
import dev.payments.support.web.InputRules;
import dev.payments.support.web.Problems;
import jakarta.validation.Valid;
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

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Dead letters of one consumer group (docs/runbooks/dead-letters.md): list them (scope {@code dead-letters:read}),
 * hand one, or all of an order's, back to the group through its re-drive topic (scope {@code dead-letters:write}).
 * Who re-drove a letter is the token's subject, recorded with it and in the operator audit trail.
 */
@RestController
@RequestMapping("/api/dead-letters")
class DeadLetterController {


    private final ListDeadLetters listDeadLetters;
    private final RedriveDeadLetters redriveDeadLetters;

    DeadLetterController(ListDeadLetters listDeadLetters, RedriveDeadLetters redriveDeadLetters) {
        this.listDeadLetters = listDeadLetters;
        this.redriveDeadLetters = redriveDeadLetters;
    }

    /**
     * @param eventId      the letter's id for a re-drive (null: a record that is not an envelope; it can only be read)
     * @param status       WAITING (its effect has not happened in the group) or REDRIVEN
     * @param kind         what the failure said: permanent (could never apply) or unclassified (failed its retries)
     * @param firstFailure when it first failed; {@code lastFailure} when it was last dead-lettered
     * @param deadLettered how many times it was dead-lettered (more than once: re-driven and failed again)
     * @param letter       its latest record on the dead-letter topic
     * @param original     where the consumer read it
     */
    record LetterResponse(UUID eventId, String orderId, String type, String topic, String status, String kind,
                          String exception, String message, String cause, Instant firstFailure, Instant lastFailure,
                          int deadLettered, RecordRef letter, RecordRef original, String redrivenBy,
                          Instant redrivenAt) {

        static LetterResponse of(DeadLetter letter) {
            return new LetterResponse(letter.eventId(), letter.orderId(), letter.type(), letter.sourceTopic(),
                    letter.status().name(), letter.kind(), letter.exception(), letter.message(), letter.cause(),
                    letter.firstFailure(), letter.lastFailure(), letter.deadLettered(), letter.letter(),
                    letter.original(), letter.redrive() == null ? null : letter.redrive().by(),
                    letter.redrive() == null ? null : letter.redrive().at());
        }
    }

    /** @param total letters matching the filter; {@code waiting} of the group whatever the filter */
    record LetterPage(String group, int page, int size, int total, int waiting, List<LetterResponse> letters) {

        static LetterPage of(DeadLetterPage page) {
            return new LetterPage(page.group(), page.page(), page.size(), page.total(), page.waiting(),
                    page.letters().stream().map(LetterResponse::of).toList());
        }
    }

    /**
     * @param redriven true if this call handed it back; false if it had been re-driven before (by
     *                 {@code redrivenBy}, at {@code redrivenAt}) and nothing was sent
     */
    record RedriveResponse(UUID eventId, String orderId, String topic, boolean redriven, String redrivenBy,
                           Instant redrivenAt) {

        static RedriveResponse of(RedriveDeadLetters.Result result) {
            return new RedriveResponse(result.letter().eventId(), result.letter().orderId(),
                    result.letter().sourceTopic(), result.redriven(), result.redrivenBy(), result.redrivenAt());
        }
    }

    record OrderRedriveResponse(String group, String orderId, int redriven, List<RedriveResponse> letters) {
    }

    /**
     * @param reason why the operator hands it back (optional here; the console requires it): kept in the operator audit
     *               trail with the re-drive
     */
    record RedriveRequest(@Size(max = 2000) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS,
            message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String reason) {
    }

    /** Oldest first failure first. */
    @ProblemResponse(status = 400, codes = {"UNKNOWN_CONSUMER_GROUP", "VALIDATION_FAILED"})
    @GetMapping("/{group}")
    ResponseEntity<LetterPage> list(@PathVariable String group, @RequestParam(required = false) DeadLetter.Status status,
                                    @RequestParam(defaultValue = "0") int page,
                                    @RequestParam(defaultValue = "50") int size) {
        if (page < 0 || size < 1 || size > ListDeadLetters.MAX_PAGE_SIZE) {
            return Problems.refusal(HttpStatus.BAD_REQUEST, Problems.VALIDATION_FAILED,
                    "page must be 0 or more and size 1 to " + ListDeadLetters.MAX_PAGE_SIZE);
        }
        return Answers.respond(listDeadLetters.list(group, status, page, size), LetterPage::of);
    }

    @ProblemResponse(status = 400, codes = "UNKNOWN_CONSUMER_GROUP")
    @ProblemResponse(status = 404, codes = "DEAD_LETTER_NOT_FOUND")
    @PostMapping("/{group}/{eventId}/redrive")
    ResponseEntity<RedriveResponse> redrive(@PathVariable String group, @PathVariable UUID eventId, Caller operator,
                                            @Valid @RequestBody(required = false) RedriveRequest request) {
        return Answers.respond(redriveDeadLetters.one(group, eventId, operator.subject()), RedriveResponse::of);
    }

    /** Every dead letter of the order in the group, in the order they first failed. */
    @ProblemResponse(status = 400, codes = "UNKNOWN_CONSUMER_GROUP")
    @ProblemResponse(status = 404, codes = "DEAD_LETTER_NOT_FOUND")
    @PostMapping("/{group}/orders/{orderId}/redrive")
    ResponseEntity<OrderRedriveResponse> redriveOrder(@PathVariable String group, @PathVariable UUID orderId,
                                                      Caller operator,
                                                      @Valid @RequestBody(required = false) RedriveRequest request) {
        return Answers.respond(redriveDeadLetters.ofOrder(group, orderId.toString(), operator.subject()),
                results -> new OrderRedriveResponse(group, orderId.toString(),
                        (int) results.stream().filter(RedriveDeadLetters.Result::redriven).count(),
                        results.stream().map(RedriveResponse::of).toList()));
    }
}
