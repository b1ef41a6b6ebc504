package dev.payments.pgsim.ledger;

/** Why a payment was ABORTED, as Toss reports it in {@code failure}. */
public record Failure(String code, String message) {

    public static Failure of(DeclineReason reason) {
        return new Failure(reason.name(), reason.message());
    }
}
