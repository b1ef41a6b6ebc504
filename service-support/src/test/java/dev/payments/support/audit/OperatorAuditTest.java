package dev.payments.support.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.support.security.ApiAccess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.http.HttpMethod;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.authentication.TestingAuthenticationToken;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

class OperatorAuditTest {

    private final OperatorActionLog log = mock(OperatorActionLog.class);
    private final OperatorAudit audit = new OperatorAudit(log, ApiAccess.builder()
            .members(HttpMethod.POST, "/api/payments/{paymentId}/cancel")
            .scope("dead-letters:read", HttpMethod.GET, "/api/dead-letters/{group}")
            .scope("dead-letters:write", HttpMethod.POST, "/api/dead-letters/{group}/{eventId}/redrive")
            .scope("replay:write", HttpMethod.POST, "/api/replay/offsets")
            .open(HttpMethod.POST, "/api/pg/webhooks")
            .build().rules(), new ObjectMapper(), Clock.fixed(Instant.parse("2026-12-05T05:00:00Z"), ZoneOffset.UTC));

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void anOperatorsRefusedActionIsRecordedWithTheRouteItsIdsAndTheCaller() throws Exception {
        SecurityContextHolder.getContext().setAuthentication(new TestingAuthenticationToken("viewer-1", null));
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/dead-letters/payment-service/ev-1/redrive");

        audit.filter().doFilter(request, new MockHttpServletResponse(),
                (req, res) -> ((MockHttpServletResponse) res).setStatus(403));

        ArgumentCaptor<OperatorAction> recorded = ArgumentCaptor.forClass(OperatorAction.class);
        verify(log).insert(recorded.capture());
        assertThat(recorded.getValue()).satisfies(action -> {
            assertThat(action.subject()).isEqualTo("viewer-1");
            assertThat(action.action()).isEqualTo("POST /api/dead-letters/{group}/{eventId}/redrive");
            assertThat(action.objectId()).isEqualTo("payment-service/ev-1");
            assertThat(action.result()).isEqualTo(OperatorAction.Result.REFUSED);
            assertThat(action.status()).isEqualTo(403);
            assertThat(action.inTransaction()).isFalse();
            assertThat(action.at()).isEqualTo(Instant.parse("2026-12-05T05:00:00Z"));
        });
    }

    @Test
    void anActionOnWhatItsBodyNamesRecordsThoseNamesAsItsObject() throws Exception {
        SecurityContextHolder.getContext().setAuthentication(new TestingAuthenticationToken("alice", null));
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/replay/offsets");
        request.setContentType("application/json");
        request.setContent("""
                {"group":"order-service","topic":"payment.events","from":"2026-12-05T04:00:00Z","dryRun":false}"""
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));

        audit.filter().doFilter(request, new MockHttpServletResponse(), (req, res) -> {
            req.getInputStream().readAllBytes();
            ((MockHttpServletResponse) res).setStatus(200);
        });

        ArgumentCaptor<OperatorAction> recorded = ArgumentCaptor.forClass(OperatorAction.class);
        verify(log).insert(recorded.capture());
        assertThat(recorded.getValue().objectId()).isEqualTo("order-service/payment.events/2026-12-05T04:00:00Z");
        assertThat(recorded.getValue().result()).isEqualTo(OperatorAction.Result.DONE);
    }

    @Test
    void readsMembersActionsAndOpenRoutesAreNoOperatorActions() throws Exception {
        for (MockHttpServletRequest request : new MockHttpServletRequest[] {
                new MockHttpServletRequest("GET", "/api/dead-letters/payment-service"),
                new MockHttpServletRequest("POST", "/api/payments/p-1/cancel"),
                new MockHttpServletRequest("POST", "/api/pg/webhooks")}) {
            audit.filter().doFilter(request, new MockHttpServletResponse(), (req, res) -> { });
        }

        verify(log, never()).insert(org.mockito.ArgumentMatchers.any());
        assertThat(audit.hasActions()).isTrue();
    }

    @Test
    void aServiceWithoutOperatorRoutesHasNothingToRecord() {
        OperatorAudit membersOnly = new OperatorAudit(log, ApiAccess.builder()
                .members(HttpMethod.POST, "/api/orders").build().rules(), new ObjectMapper(), Clock.systemUTC());

        assertThat(membersOnly.hasActions()).isFalse();
    }
}
