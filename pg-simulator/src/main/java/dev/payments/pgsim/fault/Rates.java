package dev.payments.pgsim.fault;

final class Rates {

    private Rates() {
    }

    static void check(String field, double rate) {
        if (!(rate >= 0.0 && rate <= 1.0)) {
            throw new IllegalArgumentException(field + " must be between 0.0 and 1.0, got " + rate);
        }
    }
}
