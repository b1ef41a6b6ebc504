package dev.payments.reconciliation.config;

import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The operators' tools over the consumer groups (docs/runbooks/replay.md).
 *
 * @param consumers          the consumer groups of each topic: the only groups replay may move, and the ones the dry
 *                           run reports on
 * @param groupEmptyTimeout  how long to wait for this service's own group to empty after stopping its listeners
 * @param deadLetterCount    how often every group's waiting dead letters are counted for the metric
 */
@Validated
@ConfigurationProperties("reconciliation.replay")
public record OperationsProperties(@NotEmpty Map<String, List<String>> consumers,
                                   @NotNull @DefaultValue("30s") Duration groupEmptyTimeout,
                                   @NotNull @DefaultValue("60s") Duration deadLetterCount) {
}
