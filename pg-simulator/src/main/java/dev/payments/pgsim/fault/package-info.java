/** Fault injection: what can go wrong per operation (latency, hang, connection faults, 5xx, declines, lost answers, async processing) and the seeded decisions. */
package dev.payments.pgsim.fault;
