package dev.payments.pgsim.http;

import java.nio.charset.StandardCharsets;

/**
 * A complete HTTP answer, already serialized, so an idempotent replay is byte-identical to the
 * first answer.
 */
public record Reply(int status, byte[] body) {

    public boolean isSuccess() {
        return status >= 200 && status < 300;
    }

    public static Reply json(int status, Object value) {
        return new Reply(status, Json.write(value));
    }

    public static Reply error(int status, String code, String message) {
        return json(status, new ErrorBody(code, message));
    }

    public static Reply noContent() {
        return new Reply(204, new byte[0]);
    }

    @Override
    public String toString() {
        return "Reply[" + status + " " + new String(body, StandardCharsets.UTF_8) + "]";
    }

    /** Toss's error shape. */
    public record ErrorBody(String code, String message) {
    }
}
