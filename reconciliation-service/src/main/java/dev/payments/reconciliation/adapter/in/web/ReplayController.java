package dev.payments.reconciliation.adapter.in.web;

import dev.payments.reconciliation.application.operations.DryRunOrderReplay;
import dev.payments.reconciliation.application.operations.OffsetReset;
import dev.payments.reconciliation.application.operations.OrderReplayReport;
import dev.payments.reconciliation.application.operations.ReplayOrder;
import dev.payments.reconciliation.application.operations.ReplayTopic;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.support.api.ProblemResponse;
import dev.payments.support.security.Caller;
import dev.payments.support.web.InputRules;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.springframework.format.annotation.DateTimeFormat;
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
 * Incident recovery (docs/runbooks/replay.md); scope {@code events:replay}. Who moved a consumer group is the token's
 * subject, recorded in the operator audit trail and named in the answer.
 */
@RestController
@RequestMapping("/api/replay")
class ReplayController {

    /** One logger for who did what by hand, so it can be shipped and kept apart from the rest. */

    private final ReplayTopic replayTopic;
    private final DryRunOrderReplay dryRunOrderReplay;
    private final ReplayOrder replayOrder;

    ReplayController(ReplayTopic replayTopic, DryRunOrderReplay dryRunOrderReplay, ReplayOrder replayOrder) {
        this.replayTopic = replayTopic;
        this.dryRunOrderReplay = dryRunOrderReplay;
        this.replayOrder = replayOrder;
    }

    /** @param dryRun only show the target offsets; true unless explicitly false, so a typo never moves a group */
    record OffsetsRequest(@NotBlank @Size(max = 249) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String group,
                          @NotBlank @Size(max = 249) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS, message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String topic,
                          @NotNull Instant from, Boolean dryRun) {
    }

    record OffsetsResponse(String group, String topic, Instant from, boolean applied, long toReplay,
                           List<OffsetReset.Partition> partitions, String requestedBy) {

        static OffsetsResponse of(OffsetReset reset, String requestedBy) {
            return new OffsetsResponse(reset.group(), reset.topic(), reset.from(), reset.applied(), reset.toReplay(),
                    reset.partitions(), requestedBy);
        }
    }

    @ProblemResponse(status = 400, codes = "UNKNOWN_CONSUMER_GROUP")
    @ProblemResponse(status = 409, codes = {"CONSUMER_GROUP_ACTIVE", "REPLAY_WOULD_SKIP_EVENTS"})
    @PostMapping("/offsets")
    ResponseEntity<OffsetsResponse> offsets(Caller operator, @Valid @RequestBody OffsetsRequest request) {
        boolean dryRun = request.dryRun() == null || request.dryRun();
        return Answers.respond(replayTopic.replay(request.group(), request.topic(), request.from(), dryRun),
                reset -> OffsetsResponse.of(reset, operator.subject()));
    }

    record OrderReplayResponse(UUID orderId, int events, int wouldApply, List<OrderReplayReport.Event> timeline) {

        static OrderReplayResponse of(OrderReplayReport report) {
            int wouldApply = (int) report.events().stream().flatMap(e -> e.consumers().stream())
                    .filter(OrderReplayReport.Consumer::wouldApply).count();
            return new OrderReplayResponse(report.orderId().value(), report.events().size(), wouldApply,
                    report.events());
        }
    }

    /** @param since read the topics from this time (default: their start) */
    @ProblemResponse(status = 400, codes = "UNKNOWN_CONSUMER_GROUP")
    @GetMapping("/orders/{orderId}")
    OrderReplayResponse dryRun(@PathVariable UUID orderId,
                               @RequestParam(required = false) @DateTimeFormat(iso = DateTimeFormat.ISO.DATE_TIME)
                               Instant since) {
        return OrderReplayResponse.of(dryRunOrderReplay.dryRun(new OrderId(orderId), since));
    }

    /**
     * @param dryRun only say what the group would apply; true unless explicitly false
     * @param reason why (optional here; the console requires it): kept in the operator audit trail with the replay
     */
    record OrderReplayRequest(@NotBlank String group, Boolean dryRun,
                              @Size(max = 2000) @Pattern(regexp = InputRules.NO_CONTROL_CHARACTERS,
                                      message = InputRules.NO_CONTROL_CHARACTERS_MESSAGE) String reason) {
    }

    /**
     * @param applied   whether the order's events were handed to the group (on its re-drive topic)
     * @param sent      how many were handed over (every event of the order on the topics the group reads)
     * @param wouldApply how many the dry run expects the group to apply; its inbox skips the others
     */
    record OrderReplayResult(UUID orderId, String group, boolean applied, int sent, long wouldApply,
                             List<ReplayOrder.ReplayedEvent> events, String requestedBy) {
    }

    /** One order's events to one consumer group, through its re-drive topic, while it runs (docs/runbooks/replay.md). */
    @ProblemResponse(status = 400, codes = "UNKNOWN_CONSUMER_GROUP")
    @PostMapping("/orders/{orderId}")
    ResponseEntity<OrderReplayResult> replayOrder(@PathVariable UUID orderId, Caller operator,
                                                  @Valid @RequestBody OrderReplayRequest request) {
        boolean dryRun = request.dryRun() == null || request.dryRun();
        return Answers.respond(replayOrder.replay(new OrderId(orderId), request.group(), operator.subject(), dryRun),
                result -> new OrderReplayResult(orderId, result.group(), result.applied(),
                        result.applied() ? result.events().size() : 0, result.wouldApply(), result.events(),
                        operator.subject()));
    }
}
