package dev.payments.payment.config;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * The approval API.
 *
 * @param deadline          no client waits longer than this for an answer (confirm 15 s + status query 5 s)
 * @param perMemberPerMinute approvals per member per minute, across all replicas (000: 10)
 * @param webhookSecret     HMAC secret of the PG's callbacks
 * @param webhookTolerance  callbacks signed longer ago than this are refused (replay protection)
 * @param notFoundIsFinalAfter a payment the PG has never seen, this long after it was requested, failed for good:
 *                          the PG books a confirm when it arrives and gives up processing within 11 s (002), our
 *                          client stops waiting at the 20 s deadline, and nothing confirms a payment twice; so a
 *                          NOT_FOUND a minute later means the confirm never arrived (docs/resilience.md)
 * @param reservedWebThreads web threads that no PG call may hold, so reads, the PG's callbacks and fast refusals keep
 *                          answering while every PG call hangs (000: a silent PG froze all 200 threads);
 *                          {@link WebThreadBudget} refuses a configuration whose PG bulkheads leave fewer
 */
@Validated
@ConfigurationProperties("payment.approval")
public record ApprovalProperties(@DefaultValue("20s") Duration deadline,
                                 @DefaultValue("10") @Positive int perMemberPerMinute,
                                 @NotBlank String webhookSecret,
                                 @DefaultValue("5m") Duration webhookTolerance,
                                 @DefaultValue("60s") Duration notFoundIsFinalAfter,
                                 @DefaultValue("40") @Positive int reservedWebThreads) {
}
