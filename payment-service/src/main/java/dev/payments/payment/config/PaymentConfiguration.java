package dev.payments.payment.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.payment.adapter.in.web.PgWebhookSignature;
import dev.payments.payment.adapter.out.pg.PgClientProperties;
import dev.payments.payment.adapter.out.pg.ResilientPaymentGateway;
import dev.payments.payment.adapter.out.pg.TossPgClient;
import dev.payments.payment.application.ApprovalMetrics;
import dev.payments.payment.application.CancelPayment;
import dev.payments.payment.application.PaymentSearch;
import dev.payments.payment.application.SearchPayments;
import dev.payments.payment.application.ConfirmPayment;
import dev.payments.payment.application.IdempotencyKeys;
import dev.payments.payment.application.MemberRateLimit;
import dev.payments.payment.application.PayableOrders;
import dev.payments.payment.application.PaymentAttempts;
import dev.payments.payment.application.PaymentEvents;
import dev.payments.payment.application.PaymentUnitOfWork;
import dev.payments.payment.application.PaymentGateway;
import dev.payments.payment.application.Payments;
import dev.payments.payment.application.PaymentEventHistory;
import dev.payments.payment.application.RecordOrderEvent;
import dev.payments.payment.application.RepublishPaymentEvents;
import dev.payments.payment.application.SyncPayment;
import dev.payments.payment.application.RefundPayment;
import dev.payments.payment.application.Refunds;
import dev.payments.payment.adapter.in.schedule.SettleRefunds;
import dev.payments.support.schedule.ClusterJobs;
import org.springframework.beans.factory.annotation.Value;
import java.time.Duration;
import dev.payments.payment.application.renewal.RenewalCharges;
import dev.payments.support.security.ApiAccess;
import org.springframework.http.HttpMethod;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;

@Configuration(proxyBeanMethods = false)
@EnableScheduling
@EnableConfigurationProperties({ApprovalProperties.class, PgClientProperties.class})
class PaymentConfiguration {

    private static final Logger log = LoggerFactory.getLogger(PaymentConfiguration.class);

    /** Resilience4j instance names, configured in application.yml. */
    static final String PG_APPROVE = "pg-approve";
    static final String PG_REACHABILITY = "pg-reachability";
    static final String PG_QUERY = "pg-query";
    static final String PG_CANCEL = "pg-cancel";
    static final String PG_REFUND = "pg-refund";
    static final String PG_RECOVERY = "pg-recovery";
    static final String PG_RENEWAL = "pg-renewal";

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** Refuses to start when the PG bulkheads would leave the rest of the API without threads on a hung PG. */
    @Bean
    WebThreadBudget webThreadBudget(ServerProperties server, BulkheadRegistry bulkheads, ApprovalProperties approval) {
        WebThreadBudget budget = new WebThreadBudget(server.getTomcat().getThreads().getMax(),
                bulkheads.bulkhead(PG_APPROVE).getBulkheadConfig().getMaxConcurrentCalls(),
                bulkheads.bulkhead(PG_RECOVERY).getBulkheadConfig().getMaxConcurrentCalls(),
                approval.reservedWebThreads());
        log.info("Web threads: {} approvals and {} recovery calls may wait on the PG, {} are always left to the rest "
                + "of the API", budget.approvals(), budget.recovery(), budget.leftWhenThePgHangs());
        return budget;
    }

    @Bean
    PaymentGateway paymentGateway(PgClientProperties properties, ObjectMapper json, BulkheadRegistry bulkheads,
                                  CircuitBreakerRegistry breakers, RetryRegistry retries, Clock clock,
                                  MeterRegistry meters) {
        return new ResilientPaymentGateway(new TossPgClient(properties, json), properties,
                bulkheads.bulkhead(PG_APPROVE), bulkheads.bulkhead(PG_RECOVERY), bulkheads.bulkhead(PG_RENEWAL),
                breakers.circuitBreaker(PG_APPROVE), breakers.circuitBreaker(PG_REACHABILITY),
                retries.retry(PG_APPROVE), retries.retry(PG_QUERY), retries.retry(PG_CANCEL), retries.retry(PG_REFUND),
                clock, meters);
    }

    @Bean
    ApprovalMetrics approvalMetrics(MeterRegistry meters) {
        return new ApprovalMetrics(meters);
    }

    @Bean
    PaymentUnitOfWork paymentUnitOfWork(Payments payments, PaymentEvents events, TransactionTemplate transaction) {
        return new PaymentUnitOfWork(payments, events, transaction);
    }

    @Bean
    PaymentAttempts paymentAttempts(PaymentGateway gateway, Payments payments, PaymentEvents events,
                                    PaymentUnitOfWork unitOfWork, TransactionTemplate transaction, Clock clock,
                                    ObjectProvider<ObservationRegistry> observations) {
        return new PaymentAttempts(gateway, payments, events, unitOfWork, transaction, clock,
                observations.getIfAvailable(() -> ObservationRegistry.NOOP));
    }

    @Bean
    ConfirmPayment confirmPayment(ApprovalProperties properties, PaymentAttempts attempts, MemberRateLimit rateLimit,
                                  IdempotencyKeys idempotency, PayableOrders orders, Payments payments,
                                  ApprovalMetrics metrics, Clock clock) {
        return new ConfirmPayment(attempts, rateLimit, idempotency, orders, payments, metrics, clock,
                properties.deadline());
    }

    @Bean
    SyncPayment syncPayment(ApprovalProperties properties, Payments payments, PayableOrders orders,
                            RenewalCharges renewals, PaymentGateway gateway, PaymentEvents events,
                            PaymentUnitOfWork unitOfWork, Clock clock, Refunds refunds) {
        return new SyncPayment(payments, orders, renewals, gateway, events, unitOfWork, clock,
                properties.notFoundIsFinalAfter(), refunds);
    }

    @Bean
    RefundPayment refundPayment(Payments payments, PaymentUnitOfWork unitOfWork, Refunds refunds, IdempotencyKeys keys,
                                PaymentGateway gateway, PaymentEvents events, TransactionTemplate transaction,
                                Clock clock) {
        return new RefundPayment(payments, unitOfWork, refunds, keys, gateway, events, transaction, clock);
    }

    /**
     * Settles refunds whose answer was lost, from the PG's books, once per cycle across replicas: a refund REQUESTED or
     * UNKNOWN for longer than the PG's slowest answer is synced (docs/refunds.md).
     */
    @Bean
    SettleRefunds settleRefunds(Refunds refunds, SyncPayment sync, ClusterJobs jobs, Clock clock,
                                @Value("${payment.refunds.settle-every:15s}") Duration every,
                                @Value("${payment.refunds.settle-after:20s}") Duration after) {
        // A replica that died mid-run keeps the others out at most this long (never less than a cycle).
        Duration atMost = every.compareTo(Duration.ofMinutes(5)) > 0 ? every : Duration.ofMinutes(5);
        return new SettleRefunds(refunds, sync, jobs.job("payment.refund-settle", every, atMost), clock, after, 50);
    }

    @Bean
    CancelPayment cancelPayment(Payments payments, PaymentUnitOfWork unitOfWork, SyncPayment syncPayment,
                                Clock clock) {
        return new CancelPayment(payments, unitOfWork, syncPayment, clock);
    }

    @Bean
    RepublishPaymentEvents republishPaymentEvents(PaymentUnitOfWork unitOfWork, PaymentEventHistory events) {
        return new RepublishPaymentEvents(unitOfWork, events);
    }

    @Bean
    SearchPayments searchPayments(PaymentSearch search) {
        return new SearchPayments(search);
    }

    @Bean
    RecordOrderEvent recordOrderEvent(PayableOrders orders) {
        return new RecordOrderEvent(orders);
    }

    /** Who may call what (docs/security.md); the shared resource-server chain of service-support enforces it. */
    @Bean
    ApiAccess apiAccess() {
        return ApiAccess.builder()
                // Before the member's GET /api/payments/{paymentId}, which would match "export" too (first rule wins).
                .scope("payments:read", HttpMethod.GET, "/api/payments", "/api/payments/export", "/api/payments/overview",
                        "/api/payments/{paymentId}/operator-refunds")
                .scope("payments:refund", HttpMethod.POST, "/api/payments/{paymentId}/refund")
                .members(HttpMethod.POST, "/api/payments/confirm", "/api/payments/{paymentId}/cancel")
                .members(HttpMethod.GET, "/api/payments/{paymentId}", "/api/payments/{paymentId}/refunds")
                .members(HttpMethod.POST, "/api/payments/{paymentId}/refunds")
                .scope("payments:refund", HttpMethod.POST, "/api/payments/{paymentId}/operator-refunds")
                // Republishing a settled payment's events is a repair of the same kind (reconciliation asks for it).
                .scope("payments:sync", HttpMethod.POST, "/api/payments/{paymentId}/sync",
                        "/api/payments/{paymentId}/republish")
                .members(HttpMethod.POST, "/api/subscriptions")
                .members(HttpMethod.GET, "/api/subscriptions/{subscriptionId}")
                .members(HttpMethod.POST, "/api/subscriptions/{subscriptionId}/cancel")
                .scope("renewals:run", HttpMethod.POST, "/api/renewals/runs")
                .scope("renewals:read", HttpMethod.GET, "/api/renewals/runs", "/api/renewals/runs/{runId}")
                // The PG has no token of ours: its callback proves itself by its signature (PgWebhookSignature).
                .open(HttpMethod.POST, "/api/pg/webhooks")
                .build();
    }

    @Bean
    PgWebhookSignature pgWebhookSignature(ApprovalProperties properties, Clock clock) {
        return new PgWebhookSignature(properties.webhookSecret(), properties.webhookTolerance(), clock);
    }
}
