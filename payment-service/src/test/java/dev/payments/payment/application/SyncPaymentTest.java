package dev.payments.payment.application;

import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.PaymentApproved;
import dev.payments.contracts.PaymentCanceled;
import dev.payments.contracts.PaymentFailed;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PayableOrder;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PaymentStatus;
import dev.payments.payment.domain.PgOutcome;
import dev.payments.payment.domain.PgState;
import dev.payments.payment.domain.PgStatus;
import dev.payments.payment.domain.SyncAction;
import org.junit.jupiter.api.Test;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.payments.payment.domain.PaymentTestData.T0;
import static dev.payments.payment.domain.PaymentTestData.aPayment;
import static dev.payments.payment.domain.PaymentTestData.pg;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;

/**
 * The orchestration around {@link Payment#settleWith}: the PG asked by our key outside any transaction, the decision
 * under the row lock, a compensation cancelled at the PG before anything is written. The rules themselves are
 * {@code PaymentDecisionTableTest}'s.
 */
class SyncPaymentTest {

    private static final Instant NOW = T0.plusSeconds(60);

    private final InMemoryPayments payments = new InMemoryPayments();
    private final Orders orders = new Orders();
    private final Pg pg = new Pg();
    private final List<DomainEvent> published = new ArrayList<>();
    private final SyncPayment sync = new SyncPayment(payments, orders, paymentId -> false, pg, published::add,
            new PaymentUnitOfWork(payments, published::add,
                    new TransactionTemplate(mock(PlatformTransactionManager.class))),
            Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofSeconds(60), new InMemoryRefunds());

    @Test
    void asksThePgByOurPaymentKeyAndApprovesWhatIsOurs() {
        Payment payment = stored(aPayment().unknown().build(), PayableOrder.Status.OPEN);
        pg.status = pg(payment, PgState.DONE);

        SyncPayment.SyncResult result = sync.sync(payment.id()).orElseThrow();

        assertThat(pg.askedFor).containsExactly(payment.paymentKey());
        assertThat(result.action()).isEqualTo(SyncAction.APPROVED);
        assertThat(payment.status()).isEqualTo(PaymentStatus.APPROVED);
        assertThat(published).singleElement().isInstanceOf(PaymentApproved.class);
        assertThat(pg.cancels).isZero();
    }

    @Test
    void aChargeTheCustomerMustNotKeepIsCancelledAtThePgBeforeAnythingIsWritten() {
        Payment payment = stored(aPayment().unknown().customerGaveUp().build(), PayableOrder.Status.OPEN);
        pg.status = pg(payment, PgState.DONE);

        SyncPayment.SyncResult result = sync.sync(payment.id()).orElseThrow();

        assertThat(result.action()).isEqualTo(SyncAction.CANCELED);
        assertThat(result.pgState()).isEqualTo(PgState.CANCELED);
        assertThat(pg.cancels).isEqualTo(1);
        assertThat(payment.status()).isEqualTo(PaymentStatus.CANCELED);
        assertThat(payment.failureCode()).isEqualTo(Payment.COMPENSATION);
        // The cancel is owed (durably) before it is sent; CANCELED only once the PG says so.
        assertThat(published).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("PaymentCancelOwed", "PaymentCanceled");
    }

    @Test
    void anOrderNoLongerPayableIsCompensatedToo() {
        Payment payment = stored(aPayment().unknown().build(), PayableOrder.Status.CANCELED);
        pg.status = pg(payment, PgState.DONE);

        assertThat(sync.sync(payment.id()).orElseThrow().action()).isEqualTo(SyncAction.CANCELED);
        assertThat(pg.cancels).isEqualTo(1);
    }

    @Test
    void nothingChargedAtThePgIsFailed() {
        Payment payment = stored(aPayment().unknown().build(), PayableOrder.Status.OPEN);
        pg.status = pg(payment, PgState.ABORTED);

        assertThat(sync.sync(payment.id()).orElseThrow().action()).isEqualTo(SyncAction.FAILED);
        assertThat(published).singleElement().isInstanceOf(PaymentFailed.class);
    }

    @Test
    void syncingTwiceChangesNothingTheSecondTime() {
        Payment payment = stored(aPayment().unknown().build(), PayableOrder.Status.OPEN);
        pg.status = pg(payment, PgState.DONE);

        sync.sync(payment.id());
        SyncPayment.SyncResult again = sync.sync(payment.id()).orElseThrow();

        assertThat(again.action()).isEqualTo(SyncAction.NONE);
        assertThat(published).hasSize(1);
    }

    @Test
    void aCustomerWhoGivesUpWhileThePgIsBeingAskedIsNeverLeftCharged() {
        Payment payment = stored(aPayment().unknown().build(), PayableOrder.Status.OPEN);
        pg.status = pg(payment, PgState.DONE);
        // Read as PENDING (keep the charge), then the customer is told "you will not be charged" before the lock.
        payments.beforeLock = () -> {
            if (payment.status() == PaymentStatus.UNKNOWN) {
                payment.customerGaveUp();
            }
        };

        SyncPayment.SyncResult result = sync.sync(payment.id()).orElseThrow();

        assertThat(result.action()).isEqualTo(SyncAction.CANCELED);
        assertThat(pg.cancels).isEqualTo(1);
        assertThat(published).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("PaymentCancelOwed", "PaymentCanceled");
    }

    @Test
    void aCompensationThatRacedAnotherOneFindsItDoneAndWritesNothingMore() {
        Payment payment = stored(aPayment().unknown().customerGaveUp().build(), PayableOrder.Status.OPEN);
        pg.status = pg(payment, PgState.DONE);
        // Another sync (the give-up's own, the settler, a callback) cancelled and wrote CANCELED while we cancelled.
        payments.lockCount = 0;
        payments.beforeLock = () -> {
            if (++payments.lockCount == 2 && payment.status() == PaymentStatus.CANCEL_OWED) {
                payment.canceledAtPg(pg(payment, PgState.CANCELED), NOW);
            }
        };

        SyncPayment.SyncResult result = sync.sync(payment.id()).orElseThrow();

        assertThat(result.action()).isEqualTo(SyncAction.NONE);
        assertThat(payment.status()).isEqualTo(PaymentStatus.CANCELED);
        assertThat(published).extracting(e -> e.getClass().getSimpleName()).containsExactly("PaymentCancelOwed");
    }

    @Test
    void aFailedCancelSaysSoAndTheCancelStaysOwed() {
        Payment payment = stored(aPayment().unknown().customerGaveUp().build(), PayableOrder.Status.OPEN);
        pg.status = pg(payment, PgState.DONE);
        pg.cancelFails = true;

        assertThatThrownBy(() -> sync.sync(payment.id())).isInstanceOfSatisfying(PgSyncException.class, e -> {
            assertThat(e.stage()).isEqualTo(PgSyncException.Stage.CANCEL);
            assertThat(e.pgState()).isEqualTo("DONE");
        });
        assertThat(payment.status()).isEqualTo(PaymentStatus.CANCEL_OWED);
        assertThat(published).extracting(e -> e.getClass().getSimpleName()).containsExactly("PaymentCancelOwed");

        pg.cancelFails = false;
        assertThat(sync.sync(payment.id()).orElseThrow().action()).as("the next sync sends it again")
                .isEqualTo(SyncAction.CANCELED);
        assertThat(payment.status()).isEqualTo(PaymentStatus.CANCELED);
    }

    @Test
    void aCancelThePgDoesNotConfirmIsAFailedCancelToo() {
        Payment payment = stored(aPayment().unknown().customerGaveUp().build(), PayableOrder.Status.OPEN);
        pg.status = pg(payment, PgState.DONE);
        pg.cancelAnswer = PgState.DONE;

        assertThatThrownBy(() -> sync.sync(payment.id())).isInstanceOfSatisfying(PgSyncException.class,
                e -> assertThat(e.stage()).isEqualTo(PgSyncException.Stage.CANCEL));
        assertThat(payment.status()).isEqualTo(PaymentStatus.CANCEL_OWED);
    }

    @Test
    void aLateApprovalAfterWeSaidFailedIsOwedBackAndCancelled() {
        Payment payment = stored(aPayment().unknown().settledAtPg(PgState.NOT_FOUND).build(), PayableOrder.Status.OPEN);
        assertThat(payment.status()).isEqualTo(PaymentStatus.FAILED);
        pg.status = pg(payment, PgState.DONE);

        SyncPayment.SyncResult result = sync.sync(payment.id()).orElseThrow();

        assertThat(result.action()).isEqualTo(SyncAction.CANCELED);
        assertThat(pg.cancels).isEqualTo(1);
        assertThat(pg.cancelReasons).singleElement().asString().startsWith(Payment.LATE_APPROVAL + ": ");
        assertThat(published).extracting(e -> e.getClass().getSimpleName())
                .containsExactly("PaymentCancelOwed", "PaymentCanceled");
    }

    @Test
    void aFailedStatusQuerySaysSo() {
        Payment payment = stored(aPayment().unknown().build(), PayableOrder.Status.OPEN);
        pg.statusFails = true;

        assertThatThrownBy(() -> sync.sync(payment.id())).isInstanceOfSatisfying(PgSyncException.class,
                e -> assertThat(e.stage()).isEqualTo(PgSyncException.Stage.STATUS_QUERY));
    }

    @Test
    void anUnknownPaymentIsNotSynced() {
        assertThat(sync.sync(PaymentId.newId())).isEmpty();
        assertThat(pg.askedFor).isEmpty();
    }

    private Payment stored(Payment payment, PayableOrder.Status orderStatus) {
        payments.byId.put(payment.id(), payment);
        orders.byId.put(payment.orderId(), new PayableOrder(payment.orderId(), payment.memberId(), payment.money(),
                orderStatus));
        return payment;
    }

    private static final class InMemoryPayments implements Payments {
        final Map<PaymentId, Payment> byId = new HashMap<>();
        /** Runs when a row is locked: what another transaction committed just before. */
        Runnable beforeLock = () -> {
        };
        int lockCount;

        public void insert(Payment payment) {
            byId.put(payment.id(), payment);
        }

        public void update(Payment payment) {
            byId.put(payment.id(), payment);
        }

        public Optional<Payment> findById(PaymentId id) {
            return Optional.ofNullable(byId.get(id));
        }

        public Optional<Payment> lockById(PaymentId id) {
            beforeLock.run();
            return findById(id);
        }

        public boolean hasLivePayment(OrderId orderId) {
            return byId.values().stream().anyMatch(p -> p.orderId().equals(orderId) && p.status().isLive());
        }

        public Optional<Payment> findLatestByOrder(OrderId orderId) {
            return byId.values().stream().filter(p -> p.orderId().equals(orderId)).findFirst();
        }

        public boolean paymentKeyInUse(String paymentKey) {
            return byId.values().stream().anyMatch(p -> p.paymentKey().equals(paymentKey));
        }

        public Optional<Payment> findLatestByPaymentKey(String paymentKey) {
            return byId.values().stream().filter(p -> p.paymentKey().equals(paymentKey)).findFirst();
        }
    }

    private static final class Orders implements PayableOrders {
        final Map<OrderId, PayableOrder> byId = new HashMap<>();

        public Optional<PayableOrder> lock(OrderId orderId) {
            return find(orderId);
        }

        public Optional<PayableOrder> find(OrderId orderId) {
            return Optional.ofNullable(byId.get(orderId));
        }

        public void save(PayableOrder order) {
            byId.put(order.orderId(), order);
        }
    }

    private static final class Pg implements PaymentGateway {
        PgStatus status;
        final List<String> askedFor = new ArrayList<>();
        int cancels;
        final List<String> cancelReasons = new ArrayList<>();
        boolean cancelFails;
        boolean statusFails;
        PgState cancelAnswer = PgState.CANCELED;

        public <T> Admitted<T> underAdmission(Lane lane, java.util.function.Function<Approver, T> work) {
            throw new UnsupportedOperationException("sync never approves");
        }

        public String billingChargeKey(dev.payments.payment.domain.OrderId orderId) {
            throw new UnsupportedOperationException("sync never charges");
        }

        public PgStatus status(String paymentKey) {
            askedFor.add(paymentKey);
            if (statusFails) {
                throw new IllegalStateException("PG unreachable");
            }
            return status;
        }

        public dev.payments.payment.domain.RefundOutcome refund(String paymentKey,
                                                                dev.payments.payment.domain.RefundId refundId,
                                                                long amount, String cancelReason) {
            throw new UnsupportedOperationException("sync never sends a refund");
        }

        public PgStatus cancel(String paymentKey, String reason) {
            if (cancelFails) {
                throw new IllegalStateException("PG refused the cancel");
            }
            cancels++;
            cancelReasons.add(reason);
            return new PgStatus(cancelAnswer, status.paymentKey(), status.orderId(), status.amount(),
                    status.transactionKey(), status.approvedAt());
        }
    }
}
