/** The admin API on its own port: faults, stats, ledger reset and checkout sessions, so it works while the gateway port refuses. */
package dev.payments.pgsim.admin;
