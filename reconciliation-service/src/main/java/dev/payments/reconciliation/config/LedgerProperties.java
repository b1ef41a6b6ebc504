package dev.payments.reconciliation.config;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.time.Duration;

/**
 * The ledger audit (docs/reconciliation.md, "Ledger audit"). Approvals younger than the settler's settle deadline
 * count as in flight.
 *
 * @param enabled  whether the schedule runs (an audit can always be run on demand)
 * @param interval between audits
 * @param lookback the window of the PG's books each audit reads; a mismatch becomes an incident long before it
 *                 leaves the window, so nothing ages out untraced
 * @param sliceTransactions about how many PG transactions an audit reads and matches at a time: a run holds one
 *                 slice's listing and books (about 1.5 KB per PG transaction, docs/benchmarks/export.md), whatever
 *                 the lookback
 * @param pageSize transactions per listing page (the PG allows 1..1000)
 * @param timeout  per listing page
 */
@Validated
@ConfigurationProperties("reconciliation.ledger")
public record LedgerProperties(@DefaultValue("true") boolean enabled,
                               @NotNull @DefaultValue("60s") Duration interval,
                               @NotNull @DefaultValue("24h") Duration lookback,
                               @Min(100) @DefaultValue("5000") int sliceTransactions,
                               @Min(1) @Max(1000) @DefaultValue("500") int pageSize,
                               @NotNull @DefaultValue("10s") Duration timeout) {
}
