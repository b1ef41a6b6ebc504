package dev.payments.payment.application;

import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PgOutcome;
import dev.payments.payment.domain.PgRefusal;
import dev.payments.payment.domain.PgState;
import dev.payments.payment.domain.PgStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.SimpleTransactionStatus;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * What a confirm answers when the database fails before the PG is called (nothing happened, try again), and which
 * {@code payment_approval_total} label each PG outcome is counted under (000's alert depends on it).
 */
class ConfirmPaymentTest {

    private final MemberRateLimit rateLimit = mock(MemberRateLimit.class);
    private final IdempotencyKeys idempotency = mock(IdempotencyKeys.class);
    private final Pg gateway = new Pg();
    private final PayableOrders orders = mock(PayableOrders.class);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final SimpleTransactionStatus tx1 = new SimpleTransactionStatus();
    private final ConfirmPayment confirm = confirmPayment(rateLimit, mock(Payments.class),
            new TransactionTemplate(transactions(tx1)));

    private ConfirmPayment confirmPayment(MemberRateLimit limit, Payments payments, TransactionTemplate transaction) {
        PaymentAttempts attempts = new PaymentAttempts(gateway, payments, event -> { },
                new PaymentUnitOfWork(payments, event -> { }, transaction), transaction, Clock.systemUTC(),
                ObservationRegistry.NOOP);
        return new ConfirmPayment(attempts, limit, idempotency, orders, payments, new ApprovalMetrics(meters),
                Clock.systemUTC(), Duration.ofSeconds(20));
    }

    /** Admits (or refuses) every attempt and answers each approval with {@link #answer}; counts what it was asked. */
    private static final class Pg implements PaymentGateway {
        PaymentGateway.Rejection refuse;
        java.util.function.Function<ApprovalRequest, PgOutcome> answer = request -> {
            throw new AssertionError("the PG was not to be asked");
        };
        int approvals;

        @Override
        public <T> Admitted<T> underAdmission(Lane lane, java.util.function.Function<Approver, T> work) {
            if (refuse != null) {
                return new Admitted.Refused<>(refuse, Duration.ofSeconds(30));
            }
            return new Admitted.Ran<>(work.apply((request, deadline) -> {
                approvals++;
                return answer.apply(request);
            }));
        }

        @Override
        public String billingChargeKey(OrderId orderId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public PgStatus status(String paymentKey) {
            throw new UnsupportedOperationException();
        }

        @Override
        public PgStatus cancel(String paymentKey, String reason) {
            throw new UnsupportedOperationException();
        }

        @Override
        public dev.payments.payment.domain.RefundOutcome refund(String paymentKey,
                dev.payments.payment.domain.RefundId refundId, long amount, String cancelReason) {
            throw new UnsupportedOperationException();
        }
    }

    /** A transaction manager that hands out the given status, so a test can see whether TX-1 was to roll back. */
    private static PlatformTransactionManager transactions(SimpleTransactionStatus status) {
        PlatformTransactionManager manager = mock(PlatformTransactionManager.class);
        when(manager.getTransaction(any())).thenReturn(status);
        return manager;
    }

    @Test
    void aDatabaseDownBeforeThePgCallIsARetryableRefusalAndThePgIsNeverAsked() {
        when(idempotency.claim(any(), any(), any(), any())).thenThrow(new CannotGetJdbcConnectionException("pool exhausted"));

        assertRetryableDatabaseRefusal(confirm.confirm(command()));
        assertThat(meters.get("payment.approval").tag("outcome", "db_failed").counter().count()).isEqualTo(1);
    }

    @Test
    void aRefusalAtAdmissionTouchesNoDatabase() {
        gateway.refuse = PaymentGateway.Rejection.BREAKER_OPEN;

        ConfirmResult result = confirm.confirm(command());

        assertThat(result).isInstanceOfSatisfying(ConfirmResult.Refused.class,
                refused -> assertThat(refused.refusal()).isEqualTo(ConfirmResult.Refusal.PG_UNAVAILABLE));
        org.mockito.Mockito.verifyNoInteractions(rateLimit, idempotency, orders);
        assertThat(meters.get("payment.approval").tag("outcome", "pg_unavailable").counter().count()).isEqualTo(1);
    }

    @Test
    void aDatabaseDownUnderTheMembersRateBucketIsTheSameRetryableRefusal() {
        when(idempotency.claim(any(), any(), any(), any())).thenReturn(true);
        when(rateLimit.tryAcquire(any())).thenThrow(new org.springframework.dao.DataAccessResourceFailureException(
                "Connection is closed"));

        assertRetryableDatabaseRefusal(confirm.confirm(command()));
        verify(orders, never()).lock(any());
    }

    @Test
    void askingAgainUnderAKeyAlreadyUsedTakesNothingFromTheMembersAllowance() {
        when(idempotency.claim(any(), any(), any(), any())).thenReturn(false);
        when(idempotency.find(any(), any())).thenReturn(Optional.of(new IdempotencyKeys.IdempotencyRecord(
                "another request's hash", dev.payments.payment.domain.PaymentId.newId(), Optional.empty())));

        ConfirmResult result = confirm.confirm(command());

        assertThat(result).isInstanceOfSatisfying(ConfirmResult.Refused.class,
                refused -> assertThat(refused.refusal()).isEqualTo(ConfirmResult.Refusal.IDEMPOTENCY_KEY_REUSED));
        org.mockito.Mockito.verifyNoInteractions(rateLimit);
        assertThat(gateway.approvals).as("the PG was never asked").isZero();
        assertThat(tx1.isRollbackOnly()).as("TX-1 writes nothing for a replay").isTrue();
    }

    @Test
    void aMemberOverTheLimitNeverReachesTheOrderOrThePg() {
        when(idempotency.claim(any(), any(), any(), any())).thenReturn(true);
        when(rateLimit.tryAcquire(any())).thenReturn(Optional.of(Duration.ofSeconds(6)));

        ConfirmResult result = confirm.confirm(command());

        assertThat(result).isInstanceOfSatisfying(ConfirmResult.Refused.class, refused -> {
            assertThat(refused.refusal()).isEqualTo(ConfirmResult.Refusal.RATE_LIMITED);
            assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(6));
        });
        assertThat(gateway.approvals).as("the PG was never asked").isZero();
        verify(orders, never()).lock(any());
        assertThat(tx1.isRollbackOnly()).as("the claim goes with TX-1's rollback").isTrue();
        verify(idempotency, never()).release(any(), any());
    }

    @Test
    void aConfirmRefusedOnItsOrderGivesTheKeyBackAndKeepsTheTokenSpent() {
        when(idempotency.claim(any(), any(), any(), any())).thenReturn(true);
        when(rateLimit.tryAcquire(any())).thenReturn(Optional.empty());
        when(orders.lock(any())).thenReturn(Optional.empty());

        ConfirmResult result = confirm.confirm(command());

        assertThat(result).isInstanceOfSatisfying(ConfirmResult.Refused.class,
                refused -> assertThat(refused.refusal()).isEqualTo(ConfirmResult.Refusal.ORDER_NOT_FOUND));
        verify(idempotency).release(new MemberId("member-1"), "key-1");
        assertThat(tx1.isRollbackOnly()).as("TX-1 commits the member's token and the key's release").isFalse();
        assertThat(gateway.approvals).as("the PG was never asked").isZero();
        assertThat(meters.get("payment.approval").tag("outcome", "rejected").counter().count()).isEqualTo(1);
    }

    @Test
    void aDatabaseDownInTx1NeverAsksThePg() {
        when(idempotency.claim(any(), any(), any(), any())).thenReturn(true);
        when(rateLimit.tryAcquire(any())).thenReturn(Optional.empty());
        when(orders.lock(any())).thenThrow(new CannotGetJdbcConnectionException("database stopped"));

        ConfirmResult result = confirm.confirm(command());

        assertThat(result).isInstanceOfSatisfying(ConfirmResult.Refused.class,
                refused -> assertThat(refused.refusal()).isEqualTo(ConfirmResult.Refusal.DB_UNAVAILABLE));
        assertThat(gateway.approvals).as("the PG was never asked").isZero();
    }

    @Test
    void noConnectionToBeginTx1IsTheSameRetryableRefusal() {
        PlatformTransactionManager noDatabase = mock(PlatformTransactionManager.class);
        when(noDatabase.getTransaction(any())).thenThrow(
                new org.springframework.transaction.CannotCreateTransactionException("Could not open JDBC Connection"));
        ConfirmPayment withoutDatabase = confirmPayment(member -> Optional.empty(), mock(Payments.class),
                new TransactionTemplate(noDatabase));

        ConfirmResult result = withoutDatabase.confirm(command());

        assertThat(result).isInstanceOfSatisfying(ConfirmResult.Refused.class,
                refused -> assertThat(refused.refusal()).isEqualTo(ConfirmResult.Refusal.DB_UNAVAILABLE));
        assertThat(gateway.approvals).as("the PG was never asked").isZero();
    }

    /** Nothing written, the PG not asked: the customer may simply try again. */
    private void assertRetryableDatabaseRefusal(ConfirmResult result) {
        assertThat(result).isInstanceOfSatisfying(ConfirmResult.Refused.class, refused -> {
            assertThat(refused.refusal()).isEqualTo(ConfirmResult.Refusal.DB_UNAVAILABLE);
            assertThat(refused.retryAfter()).isPositive();
        });
        assertThat(gateway.approvals).as("the PG was never asked").isZero();
    }

    private static ConfirmCommand command() {
        return new ConfirmCommand(new MemberId("member-1"), "key-1", new OrderId(UUID.randomUUID()), "pk-1", 15_000);
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> outcomesAndLabels() {
        java.util.function.Function<PaymentGateway.ApprovalRequest, PgStatus> done = request -> new PgStatus(
                PgState.DONE, request.paymentKey(), request.orderId().toString(), request.amount(), "tx-1", null);
        return java.util.stream.Stream.of(
                args("approved", request -> new PgOutcome.Answered(done.apply(request)), 200),
                args("async_accepted", request -> new PgOutcome.Answered(new PgStatus(PgState.IN_PROGRESS,
                        request.paymentKey(), request.orderId().toString(), request.amount(), null, null)), 202),
                args("pg_mismatch", request -> new PgOutcome.Answered(new PgStatus(PgState.DONE, request.paymentKey(),
                        request.orderId().toString(), request.amount() + 500, "tx-1", null)), 202),
                args("declined", request -> new PgOutcome.Refused(new PgRefusal(400, "EXCEED_MAX_CARD_LIMIT", "limit")),
                        422),
                args("pg_auth_failed", request -> new PgOutcome.Refused(new PgRefusal(401, "UNAUTHORIZED_KEY", "key")),
                        502),
                args("pg_failed", request -> new PgOutcome.NotReached(), 502),
                args("pg_timeout", request -> new PgOutcome.Unknown(PgOutcome.READ_TIMEOUT), 202),
                args("pg_timeout", request -> new PgOutcome.Asked(PgStatus.notFound(), PgOutcome.READ_TIMEOUT), 202),
                args("unknown", request -> new PgOutcome.Asked(PgStatus.notFound(), "PG_TOO_MANY_REQUESTS"), 202),
                args("approved", request -> new PgOutcome.Asked(done.apply(request), "PG_IDEMPOTENT_REQUEST_PROCESSING"),
                        200));
    }

    private static org.junit.jupiter.params.provider.Arguments args(String label,
            java.util.function.Function<PaymentGateway.ApprovalRequest, PgOutcome> outcome, int httpStatus) {
        return org.junit.jupiter.params.provider.Arguments.of(label, outcome, httpStatus);
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("outcomesAndLabels")
    void everyOutcomeIsCountedUnderItsLabel(String label,
            java.util.function.Function<PaymentGateway.ApprovalRequest, PgOutcome> outcome, int httpStatus) {
        ConfirmCommand command = command();
        Payments payments = mock(Payments.class);
        java.util.concurrent.atomic.AtomicReference<dev.payments.payment.domain.Payment> stored =
                new java.util.concurrent.atomic.AtomicReference<>();
        org.mockito.Mockito.doAnswer(invocation -> {
            stored.set(invocation.getArgument(0));
            return null;
        }).when(payments).insert(any());
        when(payments.lockById(any())).thenAnswer(invocation -> Optional.ofNullable(stored.get()));
        when(idempotency.claim(any(), any(), any(), any())).thenReturn(true);
        when(orders.lock(any())).thenReturn(Optional.of(new dev.payments.payment.domain.PayableOrder(command.orderId(),
                command.memberId(), new dev.payments.contracts.Money(command.amount(), "KRW"),
                dev.payments.payment.domain.PayableOrder.Status.OPEN)));
        gateway.answer = outcome;
        ConfirmPayment withPayments = confirmPayment(member -> Optional.empty(), payments,
                new TransactionTemplate(transactions(new SimpleTransactionStatus())));

        ConfirmResult result = withPayments.confirm(command);

        assertThat(result).isInstanceOf(ConfirmResult.Answered.class);
        assertThat(gateway.approvals).isEqualTo(1);
        assertThat(switch (((ConfirmResult.Answered) result).receipt().result()) {
            case APPROVED -> 200;
            case DECLINED -> 422;
            case FAILED -> 502;
            case PENDING, NONE -> 202;
        }).isEqualTo(httpStatus);
        assertThat(meters.get("payment.approval").tag("outcome", label).counter().count()).isEqualTo(1);
    }
}
