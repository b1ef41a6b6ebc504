/** The settler's decisions: how one sync call ends, what an attempt achieved, backoff, and stop-after-N per cycle. */
package dev.payments.reconciliation.domain.settling;
