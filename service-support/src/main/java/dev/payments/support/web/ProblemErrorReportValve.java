package dev.payments.support.web;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import java.io.IOException;
import java.io.Writer;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tomcat's answer to what it refuses before Spring sees the request (an encoded NUL or slash in the path, a request
 * line or headers over the limit) as problem+json with a stable code, in place of the HTML page of Tomcat's own
 * {@link ErrorReportValve}. Installed on the host by {@link RequestLimitsAutoConfiguration}. A request Spring already
 * answered has content written and is left alone, like in the valve it replaces.
 */
public class ProblemErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0) {
            return;
        }
        AtomicBoolean ioAllowed = new AtomicBoolean(false);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = known == null ? "Error" : known.getReasonPhrase();
        String code = Problems.codeFor(status);
        try {
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                // Fixed text only: nothing of the refused request (its path may hold the NUL) is echoed.
                writer.write("{\"type\":\"" + Problems.type(code) + "\",\"title\":\"" + title + "\",\"status\":" + status
                        + ",\"detail\":\"The request was refused before it reached the service\",\"code\":\""
                        + code + "\"}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException clientGoneOrResponseClosed) {
            // Nothing left to tell the client; the request changed nothing. Tomcat's own valve ignores these too.
        }
    }
}
