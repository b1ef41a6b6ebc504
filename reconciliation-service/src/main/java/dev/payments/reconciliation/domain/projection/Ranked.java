package dev.payments.reconciliation.domain.projection;

/**
 * A state with a place in its lifecycle. Every legal transition of DESIGN.md ("States") goes to a strictly higher
 * rank, so the highest rank seen is the latest state whatever order the events arrived in. States of equal rank
 * are alternative outcomes that the state machine never chains (APPROVED and FAILED, PAID and FAILED).
 */
public interface Ranked {

    int rank();
}
