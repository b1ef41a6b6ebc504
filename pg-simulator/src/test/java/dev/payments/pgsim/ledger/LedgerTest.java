package dev.payments.pgsim.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LedgerTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
    private final Ledger ledger = new Ledger(clock);

    @Test
    void approvesOncePerOrderAndBooksOneApproveTransaction() {
        Payment started = started(ledger.beginConfirm("pk-1", "order-1", 1000));
        assertThat(started.status()).isEqualTo(PaymentStatus.IN_PROGRESS);

        Payment done = ledger.approve("pk-1").orElseThrow();

        assertThat(done.status()).isEqualTo(PaymentStatus.DONE);
        assertThat(done.lastTransactionKey()).isEqualTo(ledger.transactions().get(0).transactionKey());
        assertThat(ledger.approve("pk-1")).isEmpty();
        assertThat(refusal(ledger.beginConfirm("pk-1", "order-1", 1000))).isEqualTo(ConfirmStart.Refusal.ALREADY_PROCESSED_PAYMENT);
        assertThat(refusal(ledger.beginConfirm("pk-2", "order-1", 1000))).isEqualTo(ConfirmStart.Refusal.ALREADY_PROCESSED_PAYMENT);
        assertThat(ledger.transactions()).singleElement()
                .satisfies(t -> assertThat(t.type()).isEqualTo(TransactionType.APPROVE));
    }

    @Test
    void aDeclinedOrderCanBePaidWithAnotherPaymentKey() {
        started(ledger.beginConfirm("pk-1", "order-1", 1000));
        assertThat(ledger.abort("pk-1", DeclineReason.REJECT_CARD_PAYMENT).orElseThrow().failure().code())
                .isEqualTo("REJECT_CARD_PAYMENT");

        assertThat(refusal(ledger.beginConfirm("pk-1", "order-1", 1000))).isEqualTo(ConfirmStart.Refusal.ALREADY_PROCESSED_PAYMENT);
        started(ledger.beginConfirm("pk-2", "order-1", 1000));
        ledger.approve("pk-2");

        assertThat(ledger.paymentForOrder("order-1").orElseThrow().paymentKey()).isEqualTo("pk-2");
        assertThat(ledger.transactions()).hasSize(1);
    }

    @Test
    void partialCancelsNeverGiveBackMoreThanWasApproved() {
        started(ledger.beginConfirm("pk-1", "order-1", 1000));
        ledger.approve("pk-1");

        Payment partial = ((CancelResult.Canceled) ledger.cancel("pk-1", "one item", 300L, "k-1")).payment();
        CancelResult over = ledger.cancel("pk-1", "too much", 701L, "k-2");
        CancelResult replay = ledger.cancel("pk-1", "one item", 300L, "k-1");
        CancelResult reused = ledger.cancel("pk-1", "one item", 301L, "k-1");
        Payment rest = ((CancelResult.Canceled) ledger.cancel("pk-1", "the rest", null, "k-3")).payment();

        assertThat(partial.status()).isEqualTo(PaymentStatus.PARTIAL_CANCELED);
        assertThat(partial.balanceAmount()).isEqualTo(700);
        assertThat(partial.cancels()).singleElement().satisfies(c -> {
            assertThat(c.refundableAmount()).isEqualTo(700);
            assertThat(c.idempotencyKey()).isEqualTo("k-1");
        });
        assertThat(over).isInstanceOf(CancelResult.AmountNotCancelable.class);
        assertThat(replay).isInstanceOf(CancelResult.AlreadyCanceled.class);
        assertThat(reused).isInstanceOf(CancelResult.KeyReused.class);
        assertThat(rest.status()).isEqualTo(PaymentStatus.CANCELED);
        assertThat(rest.cancels()).extracting(Cancel::cancelAmount).containsExactly(300L, 700L);
        assertThat(ledger.cancel("pk-1", "more", 1L, "k-4")).isInstanceOf(CancelResult.NothingLeft.class);
        assertThat(ledger.cancel("pk-1", "all again", null, null)).isInstanceOf(CancelResult.AlreadyCanceled.class);
        assertThat(ledger.transactions()).extracting(Transaction::amount).containsExactly(1000L, 300L, 700L);
    }

    @Test
    void onlyOneCancelOfAPaymentIsProcessedAtATime() {
        assertThat(ledger.beginCancel("pk-1", "k-1")).isEmpty();
        assertThat(ledger.beginCancel("pk-1", "k-2")).contains("k-1");
        assertThat(ledger.beginCancel("pk-2", null)).isEmpty();
        ledger.endCancel("pk-1");
        assertThat(ledger.beginCancel("pk-1", "k-2")).isEmpty();
    }

    @Test
    void cancelIsIdempotentAndOnlyForDonePayments() {
        assertThat(ledger.cancel("nope", "r")).isInstanceOf(CancelResult.NotFound.class);
        started(ledger.beginConfirm("pk-1", "order-1", 1000));
        assertThat(ledger.cancel("pk-1", "r")).isInstanceOf(CancelResult.NotCancelable.class);
        ledger.approve("pk-1");

        CancelResult first = ledger.cancel("pk-1", "customer");
        CancelResult second = ledger.cancel("pk-1", "again");

        Payment canceled = ((CancelResult.Canceled) first).payment();
        assertThat(canceled.status()).isEqualTo(PaymentStatus.CANCELED);
        assertThat(canceled.balanceAmount()).isZero();
        assertThat(canceled.cancels()).singleElement().satisfies(c -> {
            assertThat(c.cancelAmount()).isEqualTo(1000);
            assertThat(c.cancelReason()).isEqualTo("customer");
        });
        assertThat(((CancelResult.AlreadyCanceled) second).payment()).isEqualTo(canceled);
        assertThat(ledger.transactions()).extracting(Transaction::type)
                .containsExactly(TransactionType.APPROVE, TransactionType.CANCEL);
    }

    @Test
    void aPaymentKeyOfAnotherOrderIsRefused() {
        ledger.beginConfirm("pk-1", "order-1", 1000);
        assertThat(refusal(ledger.beginConfirm("pk-1", "order-2", 1000))).isEqualTo(ConfirmStart.Refusal.NOT_MATCHES_ORDER_ID);
    }

    @Test
    void listingPagesByCursorWithinTheTimeWindow() {
        for (int i = 0; i < 5; i++) {
            started(ledger.beginConfirm("pk-" + i, "order-" + i, 100 + i));
            ledger.approve("pk-" + i);
            clock.advance(Duration.ofSeconds(1));
        }
        Instant from = Instant.parse("2025-01-01T00:00:01Z");
        Instant to = Instant.parse("2025-01-01T00:00:04Z");

        TransactionPage first = ledger.transactions(from, to, null, 2);
        TransactionPage second = ledger.transactions(from, to, first.nextCursor(), 2);

        assertThat(first.transactions()).extracting(Transaction::paymentKey).containsExactly("pk-1", "pk-2");
        assertThat(first.hasNext()).isTrue();
        assertThat(second.transactions()).extracting(Transaction::paymentKey).containsExactly("pk-3");
        assertThat(second.hasNext()).isFalse();
        assertThat(second.nextCursor()).isNull();
        assertThatThrownBy(() -> ledger.transactions(from, to, "tx_unknown", 2)).isInstanceOf(UnknownCursorException.class);
    }

    @Test
    void transactionTimesNeverGoBackwardsEvenIfTheClockDoes() {
        started(ledger.beginConfirm("pk-1", "order-1", 100));
        ledger.approve("pk-1");
        clock.advance(Duration.ofSeconds(-5));
        started(ledger.beginConfirm("pk-2", "order-2", 100));
        ledger.approve("pk-2");

        assertThat(ledger.transactions().get(1).transactedAt()).isEqualTo(ledger.transactions().get(0).transactedAt());
    }

    @Test
    void resetForgetsEverythingButKeysStayUnique() {
        started(ledger.beginConfirm("pk-1", "order-1", 100));
        String firstKey = ledger.approve("pk-1").orElseThrow().lastTransactionKey();
        ledger.reset();

        assertThat(ledger.payments()).isEmpty();
        started(ledger.beginConfirm("pk-1", "order-1", 100));
        assertThat(ledger.approve("pk-1").orElseThrow().lastTransactionKey()).isNotEqualTo(firstKey);
    }

    private static Payment started(ConfirmStart start) {
        assertThat(start).isInstanceOf(ConfirmStart.Started.class);
        return ((ConfirmStart.Started) start).payment();
    }

    private static ConfirmStart.Refusal refusal(ConfirmStart start) {
        assertThat(start).isInstanceOf(ConfirmStart.Refused.class);
        return ((ConfirmStart.Refused) start).refusal();
    }

    /** A clock the test moves by hand. */
    static final class MutableClock extends Clock {
        private final AtomicReference<Instant> now;

        MutableClock(Instant start) {
            this.now = new AtomicReference<>(start);
        }

        void advance(Duration duration) {
            now.updateAndGet(i -> i.plus(duration));
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            throw new UnsupportedOperationException("fixed to UTC");
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    }
}
