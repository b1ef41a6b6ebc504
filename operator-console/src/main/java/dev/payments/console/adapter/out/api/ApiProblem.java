package dev.payments.console.adapter.out.api;

/**
 * A service refused or failed a call: its problem+json {@code code} and {@code detail} as the operator should see
 * them (docs/problems.md), or {@code SERVICE_UNAVAILABLE} when it could not be reached at all.
 */
public final class ApiProblem extends RuntimeException {

    private final int status;
    private final String code;
    private final String detail;

    public ApiProblem(int status, String code, String detail) {
        super(status + " " + code + ": " + detail);
        this.status = status;
        this.code = code;
        this.detail = detail;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public String detail() {
        return detail;
    }
}
