package dev.payments.payment.application;

import dev.payments.contracts.DomainEvent;
import dev.payments.contracts.PaymentApproved;
import dev.payments.contracts.PaymentCanceled;
import dev.payments.contracts.PaymentFailed;
import dev.payments.payment.application.PaymentGateway.PgStatus;
import dev.payments.payment.domain.CustomerNotice;
import dev.payments.payment.domain.MemberId;
import dev.payments.payment.domain.Money;
import dev.payments.payment.domain.OrderId;
import dev.payments.payment.domain.PayableOrder;
import dev.payments.payment.domain.Payment;
import dev.payments.payment.domain.PaymentId;
import dev.payments.payment.domain.PaymentStatus;
import dev.payments.payment.domain.PgOutcome;
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
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.mock;

/** The settling rules of field report 002 and DESIGN.md "Reconciliation", one class, no I/O. */
class SyncPaymentTest {

    private static final Instant NOW = Instant.parse("2026-11-29T08:00:00Z");

    private final InMemoryPayments payments = new InMemoryPayments();
    private final Orders orders = new Orders();
    private final Pg pg = new Pg();
    private final List<DomainEvent> published = new ArrayList<>();
    private final SyncPayment sync = new SyncPayment(payments, orders, pg, published::add,
            new TransactionTemplate(mock(PlatformTransactionManager.class)), Clock.fixed(NOW, ZoneOffset.UTC),
            Duration.ofSeconds(60));

    @Test
    void doneForACustomerToldPendingKeepsTheChargeWhenTheOrderIsStillPayable() {
        Payment payment = unknownPayment(CustomerNotice.PENDING, PayableOrder.Status.OPEN, NOW.minusSeconds(60));
        pg.status = done();

        SyncPayment.SyncResult result = sync.sync(payment.id()).orElseThrow();

        assertThat(result.action()).isEqualTo("APPROVED");
        assertThat(payment.status()).isEqualTo(PaymentStatus.APPROVED);
        assertThat(published).singleElement().isInstanceOf(PaymentApproved.class);
        assertThat(pg.cancels).isZero();
    }

    @Test
    void doneForACustomerToldFailedIsCancelledAtThePg() {
        Payment payment = unknownPayment(CustomerNotice.FAILED, PayableOrder.Status.OPEN, NOW.minusSeconds(60));
        pg.status = done();

        SyncPayment.SyncResult result = sync.sync(payment.id()).orElseThrow();

        assertThat(result.action()).isEqualTo("CANCELED");
        assertThat(pg.cancels).isEqualTo(1);
        assertThat(payment.status()).isEqualTo(PaymentStatus.CANCELED);
        assertThat(published).singleElement().isInstanceOf(PaymentCanceled.class);
    }

    @Test
    void doneForAnOrderNoLongerPayableIsCancelledAtThePg() {
        Payment payment = unknownPayment(CustomerNotice.PENDING, PayableOrder.Status.CANCELED, NOW.minusSeconds(60));
        pg.status = done();

        assertThat(sync.sync(payment.id()).orElseThrow().action()).isEqualTo("CANCELED");
        assertThat(pg.cancels).isEqualTo(1);
    }

    @Test
    void canceledAbortedOrExpiredAtThePgMeansNothingWasCharged() {
        for (String state : List.of("CANCELED", "ABORTED", "EXPIRED")) {
            Payment payment = unknownPayment(CustomerNotice.PENDING, PayableOrder.Status.OPEN, NOW.minusSeconds(60));
            pg.status = new PgStatus(state, payment.paymentKey(), null, null);

            assertThat(sync.sync(payment.id()).orElseThrow().action()).as(state).isEqualTo("FAILED");
            assertThat(payment.status()).isEqualTo(PaymentStatus.FAILED);
        }
        assertThat(published).allSatisfy(event -> assertThat(event).isInstanceOf(PaymentFailed.class));
    }

    @Test
    void undecidedAtThePgIsTriedLaterAndChangesNothing() {
        for (String state : List.of("READY", "IN_PROGRESS", PgStatus.NOT_FOUND)) {
            Payment payment = unknownPayment(CustomerNotice.PENDING, PayableOrder.Status.OPEN, NOW.minusSeconds(30));
            pg.status = new PgStatus(state, null, null, null);

            assertThat(sync.sync(payment.id()).orElseThrow().action()).as(state).isEqualTo("RETRY_LATER");
            assertThat(payment.status()).isEqualTo(PaymentStatus.UNKNOWN);
        }
        assertThat(published).isEmpty();
    }

    @Test
    void aPaymentThePgNeverSawAMinuteAfterItWasRequestedFailed() {
        Payment payment = unknownPayment(CustomerNotice.NONE, PayableOrder.Status.OPEN, NOW.minus(Duration.ofSeconds(61)));
        pg.status = new PgStatus(PgStatus.NOT_FOUND, null, null, null);

        assertThat(sync.sync(payment.id()).orElseThrow().action()).isEqualTo("FAILED");
        assertThat(payment.failureCode()).isEqualTo("PG_NOT_FOUND");
    }

    @Test
    void syncingTwiceChangesNothingTheSecondTime() {
        Payment payment = unknownPayment(CustomerNotice.PENDING, PayableOrder.Status.OPEN, NOW.minusSeconds(60));
        pg.status = done();

        sync.sync(payment.id());
        SyncPayment.SyncResult again = sync.sync(payment.id()).orElseThrow();

        assertThat(again.action()).isEqualTo("NONE");
        assertThat(published).hasSize(1);
    }

    @Test
    void aCustomerWhoGivesUpWhileTheSyncRunsIsNeverLeftCharged() {
        Payment payment = unknownPayment(CustomerNotice.PENDING, PayableOrder.Status.OPEN, NOW.minusSeconds(60));
        pg.status = done();
        // Read as PENDING (keep the charge), then the customer is told "you will not be charged" before the write.
        payments.beforeLock = () -> payment.told(CustomerNotice.FAILED);

        SyncPayment.SyncResult first = sync.sync(payment.id()).orElseThrow();

        assertThat(first.action()).isEqualTo("RETRY_LATER");
        assertThat(payment.status()).isEqualTo(PaymentStatus.UNKNOWN);
        assertThat(published).isEmpty();
        assertThat(pg.cancels).isZero();

        SyncPayment.SyncResult next = sync.sync(payment.id()).orElseThrow();

        assertThat(next.action()).isEqualTo("CANCELED");
        assertThat(pg.cancels).isEqualTo(1);
        assertThat(published).singleElement().isInstanceOf(PaymentCanceled.class);
    }

    @Test
    void aCompensationThatRacedAnotherOneFindsItDoneAndWritesNothingMore() {
        Payment payment = unknownPayment(CustomerNotice.FAILED, PayableOrder.Status.OPEN, NOW.minusSeconds(60));
        pg.status = done();
        // Another sync (the give-up's own, the settler, a callback) cancelled and wrote CANCELED first.
        payments.beforeLock = () -> {
            if (payment.status() == PaymentStatus.UNKNOWN) {
                payment.cancel("COMPENSATION", NOW);
            }
        };

        SyncPayment.SyncResult result = sync.sync(payment.id()).orElseThrow();

        assertThat(result.action()).isEqualTo("NONE");
        assertThat(payment.status()).isEqualTo(PaymentStatus.CANCELED);
        assertThat(published).isEmpty();
    }

    @Test
    void aFailedCancelSaysSoAndWritesNothing() {
        Payment payment = unknownPayment(CustomerNotice.FAILED, PayableOrder.Status.OPEN, NOW.minusSeconds(60));
        pg.status = done();
        pg.cancelFails = true;

        assertThatThrownBy(() -> sync.sync(payment.id())).isInstanceOfSatisfying(PgSyncException.class, e -> {
            assertThat(e.stage()).isEqualTo(PgSyncException.Stage.CANCEL);
            assertThat(e.pgState()).isEqualTo("DONE");
        });
        assertThat(payment.status()).isEqualTo(PaymentStatus.UNKNOWN);
        assertThat(published).isEmpty();
    }

    @Test
    void aFailedStatusQuerySaysSo() {
        Payment payment = unknownPayment(CustomerNotice.PENDING, PayableOrder.Status.OPEN, NOW.minusSeconds(60));
        pg.statusFails = true;

        assertThatThrownBy(() -> sync.sync(payment.id())).isInstanceOfSatisfying(PgSyncException.class,
                e -> assertThat(e.stage()).isEqualTo(PgSyncException.Stage.STATUS_QUERY));
    }

    private PgStatus done() {
        return new PgStatus("DONE", "pk", "txn-1", NOW.minusSeconds(30));
    }

    private Payment unknownPayment(CustomerNotice told, PayableOrder.Status orderStatus, Instant requestedAt) {
        OrderId orderId = new OrderId(UUID.randomUUID());
        Payment payment = Payment.request(PaymentId.newId(), orderId, new MemberId("member-1"), new Money(15_000, "KRW"),
                "pk-" + orderId, requestedAt);
        payment.markUnknown("PG_READ_TIMEOUT", requestedAt);
        payment.told(told);
        payments.byId.put(payment.id(), payment);
        orders.byId.put(orderId, new PayableOrder(orderId, payment.memberId(), payment.money(), orderStatus));
        return payment;
    }

    private static final class InMemoryPayments implements Payments {
        final Map<PaymentId, Payment> byId = new HashMap<>();
        /** Runs when a row is locked: what another transaction committed just before. */
        Runnable beforeLock = () -> {
        };

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
        int cancels;
        boolean cancelFails;
        boolean statusFails;

        public Admission admit() {
            throw new UnsupportedOperationException("sync never approves");
        }

        public PgOutcome approve(Admission.Granted admission, ApprovalRequest request, Instant deadline) {
            throw new UnsupportedOperationException("sync never approves");
        }

        public PgStatus status(OrderId orderId) {
            if (statusFails) {
                throw new IllegalStateException("PG unreachable");
            }
            return status;
        }

        public PgStatus cancel(String paymentKey, String reason) {
            if (cancelFails) {
                throw new IllegalStateException("PG refused the cancel");
            }
            cancels++;
            return new PgStatus("CANCELED", paymentKey, status.transactionKey(), status.approvedAt());
        }
    }
}
