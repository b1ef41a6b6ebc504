package dev.payments.reconciliation.domain.ledger;

import dev.payments.contracts.Money;
import dev.payments.reconciliation.domain.incidents.Incident;
import dev.payments.reconciliation.domain.incidents.ResolutionOutcome;
import dev.payments.reconciliation.domain.incidents.IncidentReason;
import dev.payments.reconciliation.domain.projection.Bookkeeping;
import dev.payments.reconciliation.domain.projection.MemberId;
import dev.payments.reconciliation.domain.projection.OrderDetails;
import dev.payments.reconciliation.domain.projection.OrderStatus;
import dev.payments.reconciliation.domain.projection.OrderView;
import dev.payments.reconciliation.domain.projection.PaymentPurpose;
import dev.payments.reconciliation.domain.projection.PaymentStatus;
import dev.payments.reconciliation.domain.projection.PaymentView;
import dev.payments.reconciliation.domain.projection.RefundView;
import dev.payments.reconciliation.domain.shared.OrderId;
import dev.payments.reconciliation.domain.shared.PaymentId;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The matching rules of the ledger audit, one rule per test. */
class LedgerAuditTest {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final Instant FROM = NOW.minus(Duration.ofHours(24));
    private static final Duration IN_FLIGHT = Duration.ofSeconds(30);
    private static final Instant OLD = NOW.minusSeconds(600);

    private final List<PgTransaction> pg = new ArrayList<>();
    private final List<PaymentView> payments = new ArrayList<>();
    private final List<OrderView> orders = new ArrayList<>();
    private final List<Incident> incidents = new ArrayList<>();
    private final List<RefundView> refunds = new ArrayList<>();
    private int sequence;

    @Test
    void anApprovalOfAPaidOrderWithAnApprovedPaymentIsPaid() {
        Sale sale = approvedAndPaid(OLD);

        LedgerReport report = audit();

        assertThat(report.paidOrders()).isEqualTo(1);
        assertThat(report.holds()).isTrue();
        assertThat(sale.payment.status()).isEqualTo(PaymentStatus.APPROVED);
    }

    @Test
    void partialRefundsThatAreOursHoldInMoneyAndThePartiallyRefundedOrderCountsAsPaid() {
        Sale sale = approvedAndPaid(OLD);
        refunded(sale, 4_000, RefundView.Status.SUCCEEDED, OLD.plusSeconds(5));
        refunded(sale, 1_000, RefundView.Status.SUCCEEDED, OLD.plusSeconds(6));
        orderNow(sale, OrderStatus.PARTIALLY_REFUNDED);
        Sale untouched = approvedAndPaid(OLD);

        LedgerReport report = audit();

        assertThat(report.paidOrders()).isEqualTo(2);
        assertThat(report.holds()).as(report.mismatches().toString()).isTrue();
        assertThat(report.money()).isEqualTo(new LedgerMoney(30_000, 5_000, 30_000, 5_000, 0, 0, 0));
        assertThat(report.money().holds()).isTrue();
        assertThat(untouched.payment.status()).isEqualTo(PaymentStatus.APPROVED);
    }

    @Test
    void refundsOfTheWholeAmountAreACancellation() {
        Sale sale = approvedAndPaid(OLD);
        refunded(sale, 10_000, RefundView.Status.SUCCEEDED, OLD.plusSeconds(5));
        refunded(sale, 5_000, RefundView.Status.SUCCEEDED, OLD.plusSeconds(6));
        orderNow(sale, OrderStatus.REFUNDED);

        LedgerReport report = audit();

        assertThat(report.cancellations()).isEqualTo(1);
        assertThat(report.money()).isEqualTo(new LedgerMoney(15_000, 15_000, 15_000, 15_000, 0, 0, 0));
        assertThat(report.holds()).isTrue();
    }

    @Test
    void aPgRefundWeHaveNoSucceededRefundForIsInFlightWhileOneIsUnsettledThenAMismatchInMoney() {
        Sale settling = approvedAndPaid(OLD);
        refunded(settling, 4_000, RefundView.Status.UNKNOWN, OLD.plusSeconds(5));
        Sale lateBooking = approvedAndPaid(OLD);
        refunded(lateBooking, 2_500, RefundView.Status.FAILED, OLD.plusSeconds(5));

        LedgerReport report = audit();

        assertThat(report.inFlight()).isEqualTo(1);
        LedgerMismatch mismatch = singleMismatch();
        assertThat(mismatch.reason()).isEqualTo(MismatchReason.REFUND_MISMATCH);
        assertThat(mismatch.paymentId()).isEqualTo(lateBooking.payment.paymentId());
        assertThat(mismatch.detail()).contains("gave back 2500").contains("refunds 0");
        assertThat(report.money().inFlight()).isEqualTo(11_000);
        assertThat(report.money().unmatched()).isEqualTo(12_500);
        assertThat(report.money().holds()).isFalse();
    }

    @Test
    void aRefundWeRecordedThatThePgNeverBookedIsAMismatchInMoney() {
        Sale sale = approvedAndPaid(OLD);
        refunds.add(new RefundView(UUID.randomUUID(), sale.payment.paymentId(), sale.order, new Money(3_000, "KRW"),
                RefundView.Status.SUCCEEDED, "tx-nowhere", OLD));

        assertThat(singleMismatch().reason()).isEqualTo(MismatchReason.REFUND_MISMATCH);
    }

    @Test
    void anApprovedRenewalChargeIsARenewalNotAnOrderThatWasNeverPaid() {
        PaymentView charged = renewalCharge(PaymentStatus.APPROVED, 9_900, null);
        approve(charged, charged.orderId(), 9_900, OLD);
        approvedAndPaid(OLD);

        LedgerReport report = audit();

        assertThat(report.renewals()).isEqualTo(1);
        assertThat(report.paidOrders()).isEqualTo(1);
        assertThat(report.pgApprovals()).isEqualTo(report.paidOrders() + report.renewals());
        assertThat(report.holds()).as(report.mismatches().toString()).isTrue();
    }

    @Test
    void aRenewalChargeTheUsualRulesStillHold() {
        // Refunded: the PG's cancel returned it. Another amount: never a renewal. Recorded DECLINED: money kept.
        PaymentView refunded = renewalCharge(PaymentStatus.CANCELED, 9_900, null);
        cancel(approve(refunded, refunded.orderId(), 9_900, OLD), OLD.plusSeconds(5));
        PaymentView otherAmount = renewalCharge(PaymentStatus.APPROVED, 9_900, null);
        approve(otherAmount, otherAmount.orderId(), 19_900, OLD);
        PaymentView declined = renewalCharge(PaymentStatus.DECLINED, 9_900, null);
        approve(declined, declined.orderId(), 9_900, OLD);

        LedgerReport report = audit();

        assertThat(report.cancellations()).isEqualTo(1);
        assertThat(report.renewals()).isZero();
        assertThat(report.mismatches()).extracting(LedgerMismatch::reason)
                .containsExactlyInAnyOrder(MismatchReason.AMOUNT_MISMATCH, MismatchReason.PAYMENT_NOT_APPROVED);
    }

    @Test
    void aCompensatedApprovalIsACancellationEvenWithoutOurTransactionKey() {
        // UNKNOWN -> sync found DONE, customer told FAILED -> cancel -> CANCELED: PaymentCanceled has no approval key.
        OrderId order = newOrder(OrderStatus.FAILED);
        PaymentView payment = payment(order, PaymentStatus.CANCELED, 15_000, null, null);
        PgTransaction approval = approve(payment.paymentKey(), order, 15_000, OLD);
        cancel(approval, OLD.plusSeconds(1));

        LedgerReport report = audit();

        assertThat(report.cancellations()).isEqualTo(1);
        assertThat(report.pgCancels()).isEqualTo(1);
        assertThat(report.holds()).isTrue();
    }

    @Test
    void thePgSayingCanceledAndOurPaymentFailedIsACancellation() {
        // Field report 000's missing branch: the PG says CANCELED, the payment is FAILED, the order FAILED.
        OrderId order = newOrder(OrderStatus.FAILED);
        PaymentView payment = payment(order, PaymentStatus.FAILED, 15_000, null, null);
        cancel(approve(payment.paymentKey(), order, 15_000, OLD), OLD.plusSeconds(30));

        assertThat(audit().cancellations()).isEqualTo(1);
    }

    @Test
    void aLateApprovalCancelledWhileTheOrderIsPaidByAnotherAttemptIsACancellation() {
        // We said FAILED, the customer paid again (PAID by the second payment), then the PG booked the first
        // one late and its cancel was sent: two PG approvals, one PAID, one cancellation, nothing unaccounted.
        OrderId order = newOrder(OrderStatus.FAILED);
        PaymentView late = payment(order, PaymentStatus.CANCELED, 15_000, null, null);
        PaymentView second = payment(order, PaymentStatus.APPROVED, 15_000, null, "tx-second");
        paid(order, second);
        approve(second, order, 15_000, OLD);
        cancel(approve(late.paymentKey(), order, 15_000, OLD.plusSeconds(5)), OLD.plusSeconds(20));

        LedgerReport report = audit();

        assertThat(report.paidOrders()).isEqualTo(1);
        assertThat(report.cancellations()).isEqualTo(1);
        assertThat(report.holds()).as(report.mismatches().toString()).isTrue();
    }

    @Test
    void aCancelWeOweAndTheSettlerIsSendingIsInFlightNotAMismatch() {
        OrderId order = newOrder(OrderStatus.FAILED);
        PaymentView owed = payment(order, PaymentStatus.CANCEL_OWED, 15_000, null, null);
        approve(owed.paymentKey(), order, 15_000, OLD);

        LedgerReport report = audit();

        assertThat(report.inFlight()).isEqualTo(1);
        assertThat(report.holds()).isTrue();
    }

    @Test
    void aLateApprovalOfAFailedPaymentNoCancelOwedIsAMismatchTheRepairActsOn() {
        OrderId order = newOrder(OrderStatus.FAILED);
        PaymentView failed = payment(order, PaymentStatus.FAILED, 15_000, null, null);
        approve(failed.paymentKey(), order, 15_000, OLD);

        LedgerReport report = audit();

        assertThat(report.holds()).isFalse();
        assertThat(report.mismatches()).singleElement()
                .satisfies(m -> assertThat(m.reason()).isEqualTo(MismatchReason.PAYMENT_NOT_APPROVED));
    }

    @Test
    void anApprovalAnIncidentIsAboutIsAnIncident() {
        OrderId order = newOrder(OrderStatus.PAYMENT_PENDING);
        PaymentView payment = payment(order, PaymentStatus.UNKNOWN, 15_000, null, null);
        approve(payment.paymentKey(), order, 15_000, OLD);
        incidents.add(Incident.open(IncidentReason.COMPENSATION_FAILED, payment.paymentId(), order,
                payment.amount(), null, "cancel refused", 5, OLD));

        LedgerReport report = audit();

        assertThat(report.incidents()).isEqualTo(1);
        assertThat(report.holds()).isTrue();
    }

    @Test
    void aResolvedIncidentStillAccountsForTheMoney() {
        OrderId order = newOrder(OrderStatus.PAYMENT_PENDING);
        PaymentView payment = payment(order, PaymentStatus.UNKNOWN, 15_000, null, null);
        approve(payment.paymentKey(), order, 15_000, OLD);
        incidents.add(Incident.open(IncidentReason.UNRESOLVED, payment.paymentId(), order, payment.amount(), null,
                "x", 3, OLD).resolve("alice", ResolutionOutcome.REFUNDED_AT_PG, "refunded by bank transfer", NOW));

        assertThat(audit().incidents()).isEqualTo(1);
    }

    @Test
    void consistentBooksWinOverAnIncident() {
        Sale sale = approvedAndPaid(OLD);
        incidents.add(Incident.open(IncidentReason.ORDER_STUCK, sale.payment.paymentId(), sale.order,
                sale.payment.amount(), null, "was stuck", 0, OLD));

        LedgerReport report = audit();

        assertThat(report.paidOrders()).isEqualTo(1);
        assertThat(report.incidents()).isZero();
    }

    @Test
    void anApprovalYoungerThanTheSettleDeadlineIsInFlightUntilItIsOlder() {
        OrderId order = new OrderId(UUID.randomUUID());
        approve("pk_new", order, 15_000, NOW.minusSeconds(10));

        LedgerReport young = audit();
        assertThat(young.inFlight()).isEqualTo(1);
        assertThat(young.holds()).isTrue();

        LedgerReport later = LedgerAudit.audit(pg, books(), FROM, NOW.plusSeconds(60), NOW.plusSeconds(60), IN_FLIGHT);
        assertThat(later.inFlight()).isZero();
        assertThat(later.mismatches()).singleElement()
                .satisfies(m -> assertThat(m.reason()).isEqualTo(MismatchReason.NO_PAYMENT_RECORD));
    }

    @Test
    void anApprovalWithNoPaymentOfOursIsMoneyWithoutATrace() {
        OrderId order = new OrderId(UUID.randomUUID());
        PgTransaction approval = approve("pk_ghost", order, 9_900, OLD);

        LedgerMismatch mismatch = singleMismatch();

        assertThat(mismatch.reason()).isEqualTo(MismatchReason.NO_PAYMENT_RECORD);
        assertThat(mismatch.transactionKey()).isEqualTo(approval.transactionKey());
        assertThat(mismatch.orderId()).isEqualTo(order.toString());
        assertThat(mismatch.paymentKey()).isEqualTo("pk_ghost");
        assertThat(mismatch.amount()).isEqualTo(9_900);
        assertThat(mismatch.paymentId()).isNull();
    }

    @Test
    void anOrderIdThatIsNotOursIsNoPaymentRecord() {
        pg.add(new PgTransaction("tx_foreign", "pk_x", "order-0001", PgTransaction.Type.APPROVE, 100, "KRW", OLD));
        assertThat(singleMismatch().reason()).isEqualTo(MismatchReason.NO_PAYMENT_RECORD);
    }

    @Test
    void anUnknownPaymentPastTheDeadlineIsInFlightUntilTheSettlerSettlesOrEscalatesIt() {
        // The settler works on it and opens an incident past the escalation deadline (then it counts as one), so
        // the identity does not "fail" during every normal settle window (drills: pg-lost-response).
        OrderId order = newOrder(OrderStatus.PAYMENT_PENDING);
        PaymentView payment = payment(order, PaymentStatus.UNKNOWN, 15_000, null, null);
        approve(payment.paymentKey(), order, 15_000, OLD);

        LedgerReport report = audit();
        assertThat(report.mismatches()).isEmpty();
        assertThat(report.inFlight()).isEqualTo(1);
    }

    @Test
    void thePgKeepingMoneyOfAPaymentWeRecordedAsFailedIsTheWorstMismatch() {
        OrderId order = newOrder(OrderStatus.FAILED);
        PaymentView payment = payment(order, PaymentStatus.FAILED, 15_000, null, null);
        approve(payment.paymentKey(), order, 15_000, OLD);

        assertThat(singleMismatch().reason()).isEqualTo(MismatchReason.PAYMENT_NOT_APPROVED);
    }

    @Test
    void anApprovedPaymentWhoseOrderIsNotPaidIsAMismatch() {
        OrderId order = newOrder(OrderStatus.PAYMENT_PENDING);
        PaymentView payment = payment(order, PaymentStatus.APPROVED, 15_000, null, null);
        approve(payment, order, 15_000, OLD);

        assertThat(singleMismatch().reason()).isEqualTo(MismatchReason.ORDER_NOT_PAID);
    }

    @Test
    void aDifferentAmountIsAMismatchEvenWhileInFlight() {
        Sale sale = approvedAndPaid(NOW.minusSeconds(5));
        pg.clear();
        approve(sale.payment, sale.order, 14_000, NOW.minusSeconds(5));

        LedgerMismatch mismatch = singleMismatch();
        assertThat(mismatch.reason()).isEqualTo(MismatchReason.AMOUNT_MISMATCH);
        assertThat(mismatch.amount()).isEqualTo(14_000);
    }

    @Test
    void aCancellationOnlyWeRecordedIsAMismatch() {
        OrderId order = newOrder(OrderStatus.CANCELED);
        PaymentView payment = payment(order, PaymentStatus.CANCELED, 15_000, null, null);
        approve(payment.paymentKey(), order, 15_000, OLD);

        assertThat(singleMismatch().reason()).isEqualTo(MismatchReason.CANCELED_HERE_NOT_AT_PG);
    }

    @Test
    void aCancellationOnlyThePgRecordedIsAMismatch() {
        Sale sale = approvedAndPaid(OLD);
        cancel(pg.get(0), OLD.plusSeconds(60));

        assertThat(singleMismatch().reason()).isEqualTo(MismatchReason.CANCELED_AT_PG_NOT_HERE);
    }

    @Test
    void aFreshCancelIsInFlightWhileOurBooksCatchUp() {
        Sale sale = approvedAndPaid(OLD);
        cancel(pg.get(0), NOW.minusSeconds(2));

        assertThat(audit().inFlight()).isEqualTo(1);
    }

    @Test
    void aSecondApprovalForAnOrderWhosePaymentIsAccountedForIsADuplicate() {
        Sale sale = approvedAndPaid(OLD);
        approve("pk_second", sale.order, 15_000, OLD.plusSeconds(1));

        LedgerReport report = audit();
        assertThat(report.paidOrders()).isEqualTo(1);
        assertThat(report.mismatches()).singleElement()
                .satisfies(m -> assertThat(m.reason()).isEqualTo(MismatchReason.DUPLICATE_APPROVAL));
    }

    @Test
    void withoutAnyKeyTheOrdersNewestPaymentIsMatched() {
        // A view projected before the payment key was kept: only the order id ties it to the PG's approval.
        OrderId order = newOrder(OrderStatus.PAYMENT_PENDING);
        payment(order, PaymentStatus.FAILED, 15_000, null, null, OLD.minusSeconds(120), false);
        PaymentView newest = payment(order, PaymentStatus.UNKNOWN, 15_000, null, null, OLD.minusSeconds(60), false);
        approve("pk_unknown_to_us", order, 15_000, OLD);

        // Matched to the FAILED one it would be the worst mismatch (PG kept money we recorded as failed); matched to
        // the newest, UNKNOWN one, it is being settled.
        LedgerReport report = audit();
        assertThat(report.mismatches()).isEmpty();
        assertThat(report.inFlight()).isEqualTo(1);
        assertThat(newest.status()).isEqualTo(PaymentStatus.UNKNOWN);
    }

    @Test
    void anApprovalOfOursThePgHasNoTransactionForIsAMismatch() {
        OrderId order = newOrder(OrderStatus.PAID);
        PaymentView payment = payment(order, PaymentStatus.APPROVED, 15_000, "pk_1", "tx_we_invented", OLD, true);
        paid(order, payment);

        LedgerMismatch mismatch = singleMismatch();
        assertThat(mismatch.reason()).isEqualTo(MismatchReason.NO_PG_APPROVAL);
        assertThat(mismatch.transactionKey()).isEqualTo("tx_we_invented");
        assertThat(mismatch.paymentId()).isEqualTo(payment.paymentId());
    }

    @Test
    void ourApprovalsAtTheWindowsEdgeYoungOrUnderAnIncidentAreNotReportedMissing() {
        OrderId edge = newOrder(OrderStatus.PAID);
        payment(edge, PaymentStatus.APPROVED, 1, "pk_edge", "tx_edge", FROM.plusSeconds(10), true);
        OrderId young = newOrder(OrderStatus.PAID);
        payment(young, PaymentStatus.APPROVED, 1, "pk_young", "tx_young", NOW.minusSeconds(3), true);
        OrderId known = newOrder(OrderStatus.PAID);
        PaymentView underIncident = payment(known, PaymentStatus.APPROVED, 1, "pk_i", "tx_i", OLD, true);
        incidents.add(Incident.open(IncidentReason.LEDGER_MISMATCH, underIncident.paymentId(), known,
                underIncident.amount(), "tx_i", "x", 0, OLD));
        OrderId outside = newOrder(OrderStatus.PAID);
        payment(outside, PaymentStatus.APPROVED, 1, "pk_old", "tx_old", FROM.minusSeconds(3600), true);

        assertThat(audit().mismatches()).isEmpty();
    }

    @Test
    void theIdentityAddsUpOverAMixedRun() {
        approvedAndPaid(OLD);
        approvedAndPaid(OLD);
        OrderId compensated = newOrder(OrderStatus.FAILED);
        PaymentView canceled = payment(compensated, PaymentStatus.CANCELED, 15_000, null, null);
        cancel(approve(canceled.paymentKey(), compensated, 15_000, OLD), OLD);
        OrderId stuck = newOrder(OrderStatus.PAYMENT_PENDING);
        PaymentView unknown = payment(stuck, PaymentStatus.UNKNOWN, 15_000, null, null);
        approve(unknown.paymentKey(), stuck, 15_000, OLD);
        incidents.add(Incident.open(IncidentReason.COMPENSATION_FAILED, unknown.paymentId(), stuck,
                unknown.amount(), null, "x", 5, OLD));
        approve("pk_in_flight", new OrderId(UUID.randomUUID()), 15_000, NOW.minusSeconds(1));
        approve("pk_ghost", new OrderId(UUID.randomUUID()), 15_000, OLD);

        LedgerReport report = audit();

        assertThat(report.pgApprovals()).isEqualTo(6);
        assertThat(report.paidOrders()).isEqualTo(2);
        assertThat(report.cancellations()).isEqualTo(1);
        assertThat(report.incidents()).isEqualTo(1);
        assertThat(report.inFlight()).isEqualTo(1);
        assertThat(report.unmatchedApprovals()).isEqualTo(1);
        assertThat(report.pgApprovals()).isEqualTo(report.paidOrders() + report.cancellations() + report.incidents()
                + report.inFlight() + report.unmatchedApprovals());
        assertThat(report.holds()).isFalse();
    }

    // --- builders

    private record Sale(OrderId order, PaymentView payment) {
    }

    private Sale approvedAndPaid(Instant at) {
        OrderId order = newOrder(OrderStatus.PAID);
        String txKey = "tx_" + (++sequence);
        PaymentView payment = payment(order, PaymentStatus.APPROVED, 15_000, "pk_" + sequence, txKey, at, true);
        paid(order, payment);
        pg.add(new PgTransaction(txKey, payment.paymentKey(), order.toString(), PgTransaction.Type.APPROVE, 15_000,
                "KRW", at));
        return new Sale(order, payment);
    }

    private OrderId newOrder(OrderStatus status) {
        OrderId id = new OrderId(UUID.randomUUID());
        orders.add(order(id, status, null));
        return id;
    }

    private void paid(OrderId order, PaymentView payment) {
        orders.removeIf(o -> o.orderId().equals(order));
        orders.add(order(order, OrderStatus.PAID, payment.paymentId()));
    }

    /** The sale's order as order-service moved it since (the refunded total does not matter to the audit). */
    private void orderNow(Sale sale, OrderStatus status) {
        orders.removeIf(o -> o.orderId().equals(sale.order));
        orders.add(order(sale.order, status, sale.payment.paymentId()));
    }

    private static OrderView order(OrderId id, OrderStatus status, PaymentId paymentId) {
        return new OrderView(id, new OrderDetails(new MemberId("member-1"), new Money(15_000, "KRW"), "plan"), status,
                null, paymentId, null, new Bookkeeping(UUID.randomUUID(), "Order" + status, OLD, OLD, OLD, 1, 0));
    }

    private PaymentView payment(OrderId order, PaymentStatus status, long amount, String paymentKey, String txKey) {
        return payment(order, status, amount, paymentKey == null ? "pk_" + (++sequence) : paymentKey, txKey, null,
                true);
    }

    private PaymentView payment(OrderId order, PaymentStatus status, long amount, String paymentKey, String txKey,
                                Instant approvedAt, boolean withKey) {
        return payment(order, PaymentPurpose.ORDER, status, amount, paymentKey, txKey, approvedAt, withKey);
    }

    /** A renewal run's charge: its order id is the attempt's id at the PG, and no order exists for it. */
    private PaymentView renewalCharge(PaymentStatus status, long amount, String txKey) {
        return payment(new OrderId(UUID.randomUUID()), PaymentPurpose.RENEWAL, status, amount, "bill_" + (++sequence),
                txKey, null, true);
    }

    private PaymentView payment(OrderId order, PaymentPurpose purpose, PaymentStatus status, long amount,
                                String paymentKey, String txKey, Instant approvedAt, boolean withKey) {
        PaymentView view = new PaymentView(new PaymentId(UUID.randomUUID()), order, new MemberId("member-1"),
                new Money(amount, "KRW"), purpose, status, null, withKey ? paymentKey : null, txKey, approvedAt, null,
                new Bookkeeping(UUID.randomUUID(), "Payment" + status, OLD, approvedAt == null ? OLD : approvedAt, OLD, 2,
                        0));
        payments.add(view);
        return view;
    }

    private PgTransaction approve(PaymentView payment, OrderId order, long amount, Instant at) {
        return approve(payment.paymentKey(), order, amount, at);
    }

    private PgTransaction approve(String paymentKey, OrderId order, long amount, Instant at) {
        PgTransaction t = new PgTransaction("tx_" + (++sequence), paymentKey, order.toString(),
                PgTransaction.Type.APPROVE, amount, "KRW", at);
        pg.add(t);
        return t;
    }

    private void cancel(PgTransaction approval, Instant at) {
        pg.add(new PgTransaction("tx_" + (++sequence), approval.paymentKey(), approval.orderId(),
                PgTransaction.Type.CANCEL, approval.amount(), "KRW", at));
    }

    /** A partial cancel at the PG of {@code amount}, and our refund of it in {@code status} (null: none of ours). */
    private void refunded(Sale sale, long amount, RefundView.Status status, Instant at) {
        String txKey = "tx_" + (++sequence);
        pg.add(new PgTransaction(txKey, sale.payment.paymentKey(), sale.order.toString(), PgTransaction.Type.CANCEL,
                amount, "KRW", at));
        if (status != null) {
            refunds.add(new RefundView(UUID.randomUUID(), sale.payment.paymentId(), sale.order, new Money(amount, "KRW"),
                    status, status == RefundView.Status.SUCCEEDED ? txKey : null, at));
        }
    }

    private LedgerBooks books() {
        return new LedgerBooks(payments, orders, incidents, refunds);
    }

    /**
     * The window read whole; every rule must come out the same when the window is audited slice by slice (as the
     * regular run does), wherever the slices' edges fall: here every transaction and approval in a slice of its own
     * (each edge at one of their instants), and 7-minute slices.
     */
    private LedgerReport audit() {
        LedgerReport whole = LedgerAudit.audit(pg, books(), FROM, NOW, NOW, IN_FLIGHT);
        TreeSet<Instant> instants = new TreeSet<>();
        pg.forEach(t -> instants.add(t.transactedAt()));
        payments.stream().map(PaymentView::approvedAt).filter(Objects::nonNull).forEach(instants::add);
        assertThat(sliced(to -> Optional.ofNullable(instants.lower(to)).filter(FROM::isBefore).orElse(FROM)))
                .as("each transaction in a slice of its own").isEqualTo(whole);
        assertThat(sliced(to -> to.minus(Duration.ofMinutes(7)).isBefore(FROM) ? FROM : to.minus(Duration.ofMinutes(7))))
                .as("audited in 7-minute slices").isEqualTo(whole);
        return whole;
    }

    /** Slices newest first, each with what the PG's listing and the projection's reader would hand it. */
    private LedgerReport sliced(UnaryOperator<Instant> sliceStart) {
        AuditWindow window = new AuditWindow(FROM, NOW, NOW, IN_FLIGHT, line -> {
        });
        for (Instant to = NOW; to.isAfter(FROM); ) {
            Instant from = sliceStart.apply(to);
            Instant sliceFrom = from;
            Instant sliceTo = to;
            List<PgTransaction> transactions = pg.stream()
                    .filter(t -> !t.transactedAt().isBefore(sliceFrom) && t.transactedAt().isBefore(sliceTo))
                    .toList();
            Set<String> named = transactions.stream().map(PgTransaction::orderId).collect(Collectors.toSet());
            List<PaymentView> slicePayments = payments.stream()
                    .filter(p -> named.contains(p.orderId().toString()) || p.approvedAt() != null
                            && !p.approvedAt().isBefore(sliceFrom) && p.approvedAt().isBefore(sliceTo))
                    .toList();
            Set<OrderId> orderIds = slicePayments.stream().map(PaymentView::orderId).collect(Collectors.toSet());
            Set<PaymentId> paymentIds = slicePayments.stream().map(PaymentView::paymentId).collect(Collectors.toSet());
            window.add(sliceFrom, sliceTo, transactions, new LedgerBooks(slicePayments,
                    orders.stream().filter(o -> orderIds.contains(o.orderId())
                            || named.contains(o.orderId().toString())).toList(),
                    incidents, refunds.stream().filter(r -> paymentIds.contains(r.paymentId())).toList()));
            to = from;
        }
        return window.report();
    }

    private LedgerMismatch singleMismatch() {
        LedgerReport report = audit();
        assertThat(report.mismatches()).hasSize(1);
        return report.mismatches().get(0);
    }
}
