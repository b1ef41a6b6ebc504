package dev.payments.console.adapter.out.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class OperatorApiTest {

    private final OperatorApi api = new OperatorApi(Map.of(), new ObjectMapper());

    @Test
    void aProblemAnswerKeepsItsCodeAndDetail() {
        ApiProblem problem = api.problem(refusal(HttpStatus.FORBIDDEN,
                "{\"status\":403,\"code\":\"INSUFFICIENT_SCOPE\",\"detail\":\"needs payments:sync\"}"));

        assertThat(problem.status()).isEqualTo(403);
        assertThat(problem.code()).isEqualTo("INSUFFICIENT_SCOPE");
        assertThat(problem.detail()).isEqualTo("needs payments:sync");
    }

    @Test
    void anAnswerThatIsNoProblemIsNamedByItsStatusAlone() {
        ApiProblem problem = api.problem(refusal(HttpStatus.BAD_GATEWAY, "<html>proxy error</html>"));

        assertThat(problem.code()).isEqualTo("HTTP_502");
        assertThat(problem.detail()).doesNotContain("html");
    }

    private static HttpClientErrorException refusal(HttpStatus status, String body) {
        return new HttpClientErrorException(status, status.getReasonPhrase(), new HttpHeaders(),
                body.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }
}
