package dev.payments.reconciliation.domain.incidents;

/** An incident was asked to move to a state it cannot reach from where it is. */
public class IllegalIncidentTransitionException extends RuntimeException {

    private final IncidentState from;
    private final IncidentState to;

    public IllegalIncidentTransitionException(IncidentId id, IncidentState from, IncidentState to) {
        super("incident " + id + " is " + from + " and cannot become " + to);
        this.from = from;
        this.to = to;
    }

    public IncidentState from() {
        return from;
    }

    public IncidentState to() {
        return to;
    }
}
