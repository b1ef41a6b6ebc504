/** Counters of what the simulator did, for {@code GET /admin/stats} and drills. */
package dev.payments.pgsim.stats;
