package dev.payments.support.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.ServletRequest;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BodySizeLimitTest {

    private final BodySizeLimit limit = new BodySizeLimit(1024, new ObjectMapper());

    @Test
    void aDeclaredLengthOverTheLimitIsAnsweredWithoutCallingTheChain() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/pg/webhooks") {
            @Override
            public long getContentLengthLong() {
                return 200L * 1024 * 1024; // declared; not one byte of it is there to read
            }
        };
        MockHttpServletResponse response = new MockHttpServletResponse();
        AtomicBoolean chainRan = new AtomicBoolean();

        limit.doFilter(request, response, (req, res) -> chainRan.set(true));

        assertThat(chainRan).isFalse();
        assertThat(response.getStatus()).isEqualTo(413);
        assertThat(response.getContentType()).isEqualTo("application/problem+json");
        assertThat(response.getContentAsString()).contains("\"code\":\"PAYLOAD_TOO_LARGE\"");
        assertThat(response.getHeader("Connection")).isEqualTo("close");
    }

    @Test
    void aBodyWithoutLengthFailsTheReadThatCrossesTheLimit() {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/orders") {
            @Override
            public long getContentLengthLong() {
                return -1; // chunked: the length is known only once the body has been read
            }
        };
        request.setContent(new byte[1025]);

        assertThatThrownBy(() -> limit.doFilter(request, new MockHttpServletResponse(),
                (req, res) -> req.getInputStream().readAllBytes()))
                .isInstanceOf(BodyTooLargeException.class);
    }

    @Test
    void aBodyWithinTheLimitIsReadWhole() throws Exception {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/orders");
        request.setContent(new byte[1024]);
        byte[][] read = new byte[1][];

        limit.doFilter(request, new MockHttpServletResponse(), new MockFilterChain() {
            @Override
            public void doFilter(ServletRequest req, jakarta.servlet.ServletResponse res) throws java.io.IOException {
                read[0] = req.getInputStream().readAllBytes();
            }
        });

        assertThat(read[0]).hasSize(1024);
    }
}
