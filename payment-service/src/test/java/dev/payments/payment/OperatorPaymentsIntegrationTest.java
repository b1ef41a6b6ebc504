package dev.payments.payment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.payments.contracts.OrderCreated;
import dev.payments.payment.support.PaymentServiceTestBase;
import dev.payments.payment.support.PaymentTestSupport;
import dev.payments.payment.support.PaymentTestSupport.Response;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static dev.payments.payment.support.PaymentTestSupport.confirm;
import static dev.payments.payment.support.PaymentTestSupport.orderCreated;
import static dev.payments.payment.support.PaymentTestSupport.simulator;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Operators' reads of many payments and their full refund, through real HTTP, PostgreSQL, Kafka and the PG simulator:
 * search by any field in keyset pages both ways, the CSV export with its bound, and who is refused.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "payment.approval.per-member-per-minute=1000"})
class OperatorPaymentsIntegrationTest extends PaymentServiceTestBase {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @DynamicPropertySource
    static void infrastructure(DynamicPropertyRegistry registry) {
        PaymentTestSupport.register(registry, "payments_operator_it");
    }

    private record Paid(OrderCreated order, String paymentId, Instant requestedAt) {
    }

    /** Five approved payments of one new member, oldest first. */
    private List<Paid> fivePaymentsOfOneMember() {
        String member = "member-" + UUID.randomUUID();
        List<Paid> paid = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            OrderCreated order = orderCreated(jdbc, member, 10_000 + i);
            Response answer = confirm(port, order, "search-" + order.orderId());
            assertThat(answer.status()).as(answer.body().toString()).isEqualTo(200);
            String paymentId = answer.text("paymentId");
            paid.add(new Paid(order, paymentId, jdbc.sql("SELECT requested_at FROM payments WHERE payment_id = :id")
                    .param("id", UUID.fromString(paymentId)).query(java.sql.Timestamp.class).single().toInstant()));
        }
        return paid;
    }

    @Test
    void anOperatorPagesAMembersPaymentsNewestFirstForwardAndBack() {
        List<Paid> paid = fivePaymentsOfOneMember();
        String member = paid.get(0).order().memberId();
        String filter = "/api/payments?size=2&memberId=" + member;

        Response first = search(filter);
        assertThat(ids(first)).containsExactly(paid.get(4).paymentId(), paid.get(3).paymentId());
        assertThat(first.body().path("previous").isMissingNode() || first.body().path("previous").isNull()).isTrue();
        Response second = search(filter + "&after=" + first.text("next"));
        assertThat(ids(second)).containsExactly(paid.get(2).paymentId(), paid.get(1).paymentId());
        Response last = search(filter + "&after=" + second.text("next"));
        assertThat(ids(last)).containsExactly(paid.get(0).paymentId());
        assertThat(last.text("next")).as("the last page has no next").isNull();

        Response back = search(filter + "&before=" + last.text("previous"));
        assertThat(ids(back)).containsExactly(paid.get(2).paymentId(), paid.get(1).paymentId());
        Response backToFirst = search(filter + "&before=" + back.text("previous"));
        assertThat(ids(backToFirst)).containsExactly(paid.get(4).paymentId(), paid.get(3).paymentId());
        assertThat(backToFirst.text("previous")).as("the first page has no previous").isNull();
        assertThat(backToFirst.body().path("payments").get(0).path("memberId").asText()).isEqualTo(member);
    }

    @Test
    void everyFilterNarrowsTheResult() {
        List<Paid> paid = fivePaymentsOfOneMember();
        Paid third = paid.get(2);

        assertThat(ids(search("/api/payments?paymentId=" + third.paymentId()))).containsExactly(third.paymentId());
        assertThat(ids(search("/api/payments?orderId=" + third.order().orderId()))).containsExactly(third.paymentId());
        assertThat(ids(search("/api/payments?paymentKey=pk-" + third.order().orderId()))).containsExactly(third.paymentId());
        String member = "&memberId=" + third.order().memberId();
        assertThat(ids(search("/api/payments?status=APPROVED" + member))).hasSize(5);
        assertThat(ids(search("/api/payments?status=CANCELED" + member))).isEmpty();
        // from inclusive, to exclusive
        assertThat(ids(search("/api/payments?from=" + third.requestedAt() + "&to=" + paid.get(4).requestedAt() + member)))
                .containsExactly(paid.get(3).paymentId(), third.paymentId());
    }

    @Test
    void badInputIsAProblemWithACodeAndAMemberOrAnOperatorWithoutTheScopeIsRefused() {
        assertThat(refusal("/api/payments?status=BOGUS", 400)).isEqualTo("VALIDATION_FAILED");
        assertThat(refusal("/api/payments?paymentId=not-a-uuid", 400)).isEqualTo("VALIDATION_FAILED");
        assertThat(refusal("/api/payments?size=101", 400)).isEqualTo("VALIDATION_FAILED");
        assertThat(refusal("/api/payments?from=2026-12-05T10:00:00Z&to=2026-12-05T09:00:00Z", 400)).isEqualTo("VALIDATION_FAILED");
        assertThat(refusal("/api/payments?after=bm90LWEtY3Vyc29y", 400)).isEqualTo("INVALID_CURSOR");
        assertThat(refusal("/api/payments?after=%25%25", 400)).isEqualTo("INVALID_CURSOR");

        Response member = PaymentTestSupport.get(port, "/api/payments", PaymentTestSupport.memberToken("member-1"));
        assertThat(member.status()).isEqualTo(403);
        assertThat(member.text("code")).isEqualTo("INSUFFICIENT_SCOPE");
        assertThat(PaymentTestSupport.get(port, "/api/payments", PaymentTestSupport.operatorToken("payments:sync")).status())
                .isEqualTo(403);
        assertThat(csv("/api/payments/export", PaymentTestSupport.memberToken("member-1")).statusCode()).isEqualTo(403);
        HttpResponse<String> backwards = csv("/api/payments/export?from=2026-12-05T10:00:00Z&to=2026-12-05T09:00:00Z",
                reader());
        assertThat(backwards.statusCode()).isEqualTo(400);
        assertThat(backwards.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(backwards.body()).contains("\"code\":\"VALIDATION_FAILED\"");
        assertThat(PaymentTestSupport.get(port, "/api/payments", null).status()).isEqualTo(401);
    }

    @Test
    void theExportIsTheFiltersRowsAsCsvNewestFirstAndIsRefusedBeyondTenThousandRows() {
        List<Paid> paid = fivePaymentsOfOneMember();
        HttpResponse<String> file = csv("/api/payments/export?memberId=" + paid.get(0).order().memberId(), reader());

        assertThat(file.statusCode()).as(file.body()).isEqualTo(200);
        assertThat(file.headers().firstValue("Content-Type").orElse("")).startsWith("text/csv");
        List<String> lines = file.body().lines().toList();
        assertThat(lines.get(0)).startsWith("paymentId,orderId,memberId,status,amount,currency");
        assertThat(lines).hasSize(6);
        assertThat(lines.get(1)).startsWith(paid.get(4).paymentId() + "," + paid.get(4).order().orderId())
                .contains(",APPROVED,10004,KRW,ORDER,");
        assertThat(lines.get(5)).startsWith(paid.get(0).paymentId());

        String bulk = "member-bulk-" + UUID.randomUUID();
        jdbc.sql("""
                        INSERT INTO payments (payment_id, order_id, member_id, amount, currency, payment_key, status,
                                              customer_notice, requested_at, updated_at, purpose)
                        SELECT gen_random_uuid(), gen_random_uuid(), :member, 1000, 'KRW', 'pk-bulk-' || n, 'DECLINED',
                               'DECLINED', now() - n * interval '1 second', now(), 'ORDER'
                        FROM generate_series(1, 10001) AS n
                        """).param("member", bulk).update();
        jdbc.sql("ANALYZE payments").update();

        HttpResponse<String> tooLarge = csv("/api/payments/export?memberId=" + bulk, reader());
        assertThat(tooLarge.statusCode()).isEqualTo(422);
        assertThat(tooLarge.headers().firstValue("Content-Type").orElse("")).startsWith("application/problem+json");
        assertThat(tooLarge.body()).contains("\"code\":\"EXPORT_TOO_LARGE\"").contains("10000");
        // A narrower window of the same member fits.
        HttpResponse<String> narrower = csv("/api/payments/export?memberId=" + bulk + "&from="
                + URLEncoder.encode(Instant.now().minusSeconds(3_600).toString(), StandardCharsets.UTF_8), reader());
        assertThat(narrower.statusCode()).isEqualTo(200);
        assertThat(narrower.body().lines().count()).isBetween(3_590L, 3_602L);

        // A member's newest page among 10,000 others' rows reads the member's index, not the table.
        String plan = String.join("\n", jdbc.sql("""
                        EXPLAIN SELECT payment_id FROM payments WHERE member_id = :member
                        ORDER BY requested_at DESC, payment_id DESC LIMIT 21""")
                .param("member", paid.get(0).order().memberId()).query(String.class).list());
        assertThat(plan).contains("payments_member_newest");
    }

    @Test
    void anOperatorRefundsAMembersPaymentInFullWithAReasonAndItIsOnTheRecord() {
        OrderCreated order = orderCreated(jdbc, "member-" + UUID.randomUUID(), 21_000);
        String paymentId = confirm(port, order, "op-refund-" + order.orderId()).text("paymentId");
        String refunder = PaymentTestSupport.operatorToken("payments:refund");

        Response noReason = PaymentTestSupport.postJson(port, "/api/payments/" + paymentId + "/refund", refunder, "{}");
        assertThat(noReason.status()).isEqualTo(400);
        assertThat(noReason.text("code")).isEqualTo("VALIDATION_FAILED");
        Response member = PaymentTestSupport.postJson(port, "/api/payments/" + paymentId + "/refund",
                PaymentTestSupport.memberToken(order.memberId()), "{\"reason\":\"mine\"}");
        assertThat(member.status()).isEqualTo(403);
        Response viewer = PaymentTestSupport.postJson(port, "/api/payments/" + paymentId + "/refund",
                PaymentTestSupport.operatorToken("payments:read"), "{\"reason\":\"no scope\"}");
        assertThat(viewer.status()).isEqualTo(403);
        assertThat(simulator().ledger().paymentForOrder(order.orderId().toString()).orElseThrow().status().name())
                .as("nothing refused reached the PG").isEqualTo("DONE");

        Response refunded = PaymentTestSupport.postJson(port, "/api/payments/" + paymentId + "/refund", refunder,
                "{\"reason\":\"customer called: double order\"}");

        assertThat(refunded.status()).as(refunded.body().toString()).isEqualTo(200);
        assertThat(refunded.text("status")).isEqualTo("CANCELED");
        assertThat(simulator().ledger().paymentForOrder(order.orderId().toString()).orElseThrow().status().name())
                .isEqualTo("CANCELED");
        Response trail = PaymentTestSupport.get(port, "/api/operator-actions?objectId=" + paymentId,
                PaymentTestSupport.operatorToken("audit:read"));
        List<String> recorded = new ArrayList<>();
        trail.body().path("actions").forEach(action -> recorded.add(String.join(" | ", action.path("subject").asText(),
                action.path("action").asText(), action.path("reason").asText("-"), action.path("result").asText(),
                action.path("status").asText("-"))));
        // One record per transaction the refund committed (the cancel owed, then the PG's CANCELED), each with it.
        assertThat(recorded).as("newest first").containsExactly(
                "operator-1 | POST /api/payments/{paymentId}/refund | customer called: double order | DONE | -",
                "operator-1 | POST /api/payments/{paymentId}/refund | customer called: double order | DONE | -",
                "operator-1 | POST /api/payments/{paymentId}/refund | - | REFUSED | 403",
                order.memberId() + " | POST /api/payments/{paymentId}/refund | - | REFUSED | 403",
                "operator-1 | POST /api/payments/{paymentId}/refund | - | REFUSED | 400");
    }

    private Response search(String path) {
        Response answer = PaymentTestSupport.get(port, path, reader());
        assertThat(answer.status()).as(path + ": " + answer.body()).isEqualTo(200);
        return answer;
    }

    private String refusal(String path, int status) {
        Response answer = PaymentTestSupport.get(port, path, reader());
        assertThat(answer.status()).as(path + ": " + answer.body()).isEqualTo(status);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        return answer.text("code");
    }

    private static List<String> ids(Response page) {
        List<String> ids = new ArrayList<>();
        for (JsonNode payment : page.body().path("payments")) {
            ids.add(payment.path("paymentId").asText());
        }
        return ids;
    }

    private static String reader() {
        return PaymentTestSupport.operatorToken("payments:read");
    }

    private HttpResponse<String> csv(String path, String bearer) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .header("Authorization", "Bearer " + bearer).header("Accept", "text/csv, application/problem+json")
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
