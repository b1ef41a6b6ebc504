package dev.payments.reconciliation.adapter.in.web;

/** A resource the projection has no event of. */
class NotFoundException extends RuntimeException {

    private final ProblemCode code;

    NotFoundException(ProblemCode code, String detail) {
        super(detail);
        this.code = code;
    }

    ProblemCode code() {
        return code;
    }
}
