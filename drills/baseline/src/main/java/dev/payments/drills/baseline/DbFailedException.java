package dev.payments.drills.baseline;

/** The PG approved, the payment could not be saved, and the approval was cancelled at the PG (000's db_failed). */
public class DbFailedException extends RuntimeException {

    public DbFailedException(String orderId, Throwable cause) {
        super("order " + orderId + ": the PG approved, the save failed, the approval was cancelled", cause);
    }
}
