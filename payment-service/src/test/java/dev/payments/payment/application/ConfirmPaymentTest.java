package dev.payments.payment.application;

import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.OrderId;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.PlatformTransactionManager;
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

/** What a confirm answers when the database fails before the PG is called: nothing happened, try again. */
class ConfirmPaymentTest {

    private final IdempotencyKeys idempotency = mock(IdempotencyKeys.class);
    private final PaymentGateway gateway = mock(PaymentGateway.class);
    private final PayableOrders orders = mock(PayableOrders.class);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final ConfirmPayment confirm = new ConfirmPayment(member -> Optional.empty(), idempotency, gateway, orders,
            mock(Payments.class), event -> { }, new TransactionTemplate(mock(PlatformTransactionManager.class)),
            new ApprovalMetrics(meters), Clock.systemUTC(), Duration.ofSeconds(20), ObservationRegistry.NOOP);

    @Test
    void aDatabaseDownBeforeThePgCallIsARetryableRefusalAndThePgIsNeverAsked() {
        PaymentGateway.Admission.Granted granted = mock(PaymentGateway.Admission.Granted.class);
        when(gateway.admit()).thenReturn(granted);
        when(idempotency.find(any(), any())).thenThrow(new CannotGetJdbcConnectionException("pool exhausted"));

        ConfirmResult result = confirm.confirm(command());

        assertThat(result).isInstanceOfSatisfying(ConfirmResult.Refused.class, refused -> {
            assertThat(refused.refusal()).isEqualTo(ConfirmResult.Refusal.DB_UNAVAILABLE);
            assertThat(refused.retryAfter()).isPositive();
        });
        verify(granted).releaseUnused();
        verify(gateway, never()).approve(any(), any(), any());
        assertThat(meters.get("payment.approval").tag("outcome", "db_failed").counter().count()).isEqualTo(1);
    }

    @Test
    void aRefusalAtAdmissionTouchesNoDatabase() {
        when(gateway.admit()).thenReturn(new PaymentGateway.Admission.Rejected("BREAKER_OPEN", Duration.ofSeconds(30)));

        ConfirmResult result = confirm.confirm(command());

        assertThat(result).isInstanceOfSatisfying(ConfirmResult.Refused.class,
                refused -> assertThat(refused.refusal()).isEqualTo(ConfirmResult.Refusal.PG_UNAVAILABLE));
        org.mockito.Mockito.verifyNoInteractions(idempotency, orders);
    }

    @Test
    void aDatabaseDownInTx1GivesTheAdmissionBackUnused() {
        when(idempotency.find(any(), any())).thenReturn(Optional.empty());
        PaymentGateway.Admission.Granted granted = mock(PaymentGateway.Admission.Granted.class);
        when(gateway.admit()).thenReturn(granted);
        when(orders.lock(any())).thenThrow(new CannotGetJdbcConnectionException("database stopped"));

        ConfirmResult result = confirm.confirm(command());

        assertThat(result).isInstanceOfSatisfying(ConfirmResult.Refused.class,
                refused -> assertThat(refused.refusal()).isEqualTo(ConfirmResult.Refusal.DB_UNAVAILABLE));
        verify(granted).releaseUnused();
        verify(granted).close();
        verify(gateway, never()).approve(any(), any(), any());
    }

    @Test
    void noConnectionToBeginTx1IsTheSameRetryableRefusal() {
        PlatformTransactionManager noDatabase = mock(PlatformTransactionManager.class);
        when(noDatabase.getTransaction(any())).thenThrow(
                new org.springframework.transaction.CannotCreateTransactionException("Could not open JDBC Connection"));
        ConfirmPayment withoutDatabase = new ConfirmPayment(member -> Optional.empty(), idempotency, gateway, orders,
                mock(Payments.class), event -> { }, new TransactionTemplate(noDatabase),
                new ApprovalMetrics(meters), Clock.systemUTC(), Duration.ofSeconds(20), ObservationRegistry.NOOP);
        when(idempotency.find(any(), any())).thenReturn(Optional.empty());
        PaymentGateway.Admission.Granted granted = mock(PaymentGateway.Admission.Granted.class);
        when(gateway.admit()).thenReturn(granted);

        ConfirmResult result = withoutDatabase.confirm(command());

        assertThat(result).isInstanceOfSatisfying(ConfirmResult.Refused.class,
                refused -> assertThat(refused.refusal()).isEqualTo(ConfirmResult.Refusal.DB_UNAVAILABLE));
        verify(granted).releaseUnused();
        verify(gateway, never()).approve(any(), any(), any());
    }

    private static ConfirmCommand command() {
        return new ConfirmCommand(new MemberId("member-1"), "key-1", new OrderId(UUID.randomUUID()), "pk-1", 15_000);
    }
}
