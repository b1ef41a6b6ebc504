package dev.payments.payment.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static dev.payments.payment.domain.PaymentTestData.NOT_FOUND_IS_FINAL_AFTER;
import static dev.payments.payment.domain.PaymentTestData.T0;
import static dev.payments.payment.domain.PaymentTestData.aPayment;
import static dev.payments.payment.domain.PaymentTestData.pg;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * docs/resilience.md "What a PG answer means", as two tables checked over every combination, without Spring: every
 * (payment state, customer notice) the real verbs can produce x every PG answer x order payable or not for
 * {@link Payment#settleWith}, and every confirm outcome for {@link Payment#record}. The expected rows are written
 * here, not derived from the code: first matching row wins, {@code *} matches anything, {@code =} means unchanged.
 */
class PaymentDecisionTableTest {

    /** Every (status, notice) pair the real verbs reach, named STATUS/NOTICE. */
    private static final Map<String, Supplier<Payment>> SITUATIONS = new LinkedHashMap<>();

    static {
        SITUATIONS.put("REQUESTED/NONE", () -> aPayment().build());
        SITUATIONS.put("UNKNOWN/PENDING", () -> aPayment().unknown().build());
        SITUATIONS.put("UNKNOWN/FAILED", () -> aPayment().unknown().customerGaveUp().build());
        SITUATIONS.put("APPROVED/APPROVED", () -> aPayment().approved().build());
        SITUATIONS.put("APPROVED/PENDING", () -> aPayment().unknown().settledAtPg(PgState.DONE).build());
        SITUATIONS.put("APPROVED/NONE", () -> aPayment().settledAtPg(PgState.DONE).build());
        SITUATIONS.put("DECLINED/DECLINED", () -> aPayment().declined().build());
        SITUATIONS.put("FAILED/FAILED", () -> aPayment().unknown().customerGaveUp().settledAtPg(PgState.EXPIRED).build());
        SITUATIONS.put("FAILED/PENDING", () -> aPayment().unknown().settledAtPg(PgState.ABORTED).build());
        SITUATIONS.put("FAILED/NONE", () -> aPayment().settledAtPg(PgState.NOT_FOUND).build());
        SITUATIONS.put("FAILED/FAILED never-reached", () -> aPayment().failed().build());
        SITUATIONS.put("CANCEL_OWED/APPROVED", () -> aPayment().approved().refundRequested().build());
        SITUATIONS.put("CANCEL_OWED/FAILED",
                () -> aPayment().unknown().customerGaveUp().settledAtPg(PgState.DONE).build());
        SITUATIONS.put("CANCEL_OWED/PENDING",
                () -> aPayment().unknown().settledAtPg(PgState.ABORTED).settledAtPg(PgState.DONE).build());
        SITUATIONS.put("CANCEL_OWED/DECLINED", () -> aPayment().declined().settledAtPg(PgState.DONE).build());
        SITUATIONS.put("CANCELED/FAILED",
                () -> aPayment().unknown().customerGaveUp().settledAtPg(PgState.DONE).canceledAtPg().build());
        SITUATIONS.put("CANCELED/APPROVED", () -> aPayment().approved().refundRequested().canceledAtPg().build());
    }

    /** Every kind of PG status answer, for the payment it is asked about. */
    private static final Map<String, Function<Payment, PgStatus>> ANSWERS = new LinkedHashMap<>();

    static {
        for (PgState state : PgState.values()) {
            if (state != PgState.NOT_FOUND) {
                ANSWERS.put(state.name(), p -> pg(p, state));
            }
        }
        ANSWERS.put("DONE_OTHER_AMOUNT", p -> withAmount(pg(p, PgState.DONE), p.money().amount() + 500));
        ANSWERS.put("DONE_OTHER_KEY", p -> new PgStatus(PgState.DONE, "pk-someone-else", p.orderId().toString(),
                p.money().amount(), "tx-other", T0));
        ANSWERS.put("DONE_OTHER_ORDER", p -> new PgStatus(PgState.DONE, p.paymentKey(), "another-order",
                p.money().amount(), "tx-other", T0));
        ANSWERS.put("NOT_FOUND_YOUNG", p -> PgStatus.notFound());
        ANSWERS.put("NOT_FOUND_OLD", p -> PgStatus.notFound());
    }

    /**
     * status notice | PG answer | order | action | status after. UNSETTLED = REQUESTED or UNKNOWN; NEVER_REACHED = a
     * FAILED payment whose confirm provably never left us (an approval under its key is another confirm's).
     */
    private static final List<Row> SETTLE = rows("""
            UNSETTLED *        | DONE_OTHER_*     | *         | MISMATCH     | =
            UNSETTLED *        | PARTIAL_CANCELED | *         | MISMATCH     | =
            UNSETTLED FAILED   | DONE             | *         | CANCEL_AT_PG | CANCEL_OWED
            UNSETTLED *        | DONE             | unpayable | CANCEL_AT_PG | CANCEL_OWED
            UNSETTLED *        | DONE             | payable   | APPROVED     | APPROVED
            UNSETTLED *        | CANCELED         | *         | FAILED       | FAILED
            UNSETTLED *        | ABORTED          | *         | FAILED       | FAILED
            UNSETTLED *        | EXPIRED          | *         | FAILED       | FAILED
            UNSETTLED *        | NOT_FOUND_OLD    | *         | FAILED       | FAILED
            UNSETTLED *        | *                | *         | RETRY_LATER  | =
            APPROVED  *        | DONE             | *         | NONE         | =
            APPROVED  *        | CANCELED         | *         | CANCELED     | CANCELED
            APPROVED  *        | *                | *         | MISMATCH     | =
            CANCEL_OWED *      | DONE             | *         | CANCEL_AT_PG | =
            CANCEL_OWED *      | PARTIAL_CANCELED | *         | CANCEL_AT_PG | =
            CANCEL_OWED *      | CANCELED         | *         | CANCELED     | CANCELED
            CANCEL_OWED *      | *                | *         | MISMATCH     | =
            CANCELED  *        | DONE*            | *         | MISMATCH     | =
            CANCELED  *        | *                | *         | NONE         | =
            NEVER_REACHED *    | DONE_OTHER_*     | *         | MISMATCH     | =
            NEVER_REACHED *    | *                | *         | NONE         | =
            DECLINED  *        | DONE_OTHER_*     | *         | MISMATCH     | =
            FAILED    *        | DONE_OTHER_*     | *         | MISMATCH     | =
            DECLINED  *        | DONE             | *         | CANCEL_AT_PG | CANCEL_OWED
            FAILED    *        | DONE             | *         | CANCEL_AT_PG | CANCEL_OWED
            DECLINED  *        | *                | *         | NONE         | =
            FAILED    *        | *                | *         | NONE         | =
            """);

    static Stream<Arguments> everySettleCombination() {
        return SITUATIONS.keySet().stream().flatMap(situation -> ANSWERS.keySet().stream().flatMap(answer ->
                Stream.of("payable", "unpayable").map(order -> Arguments.of(situation, answer, order))));
    }

    /** The rows that differ when every cancel at the PG is one of our succeeded refunds: our refunds did it. */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(value = PgState.class, names = {"PARTIAL_CANCELED", "CANCELED"})
    void anApprovedPaymentWhoseCancelsAreAllOurRefundsStaysApproved(PgState state) {
        Payment payment = PaymentTestData.aPayment().approved().build();

        Decision<SyncAction> explained = payment.settleWith(pg(payment, state),
                new SettleCircumstances(payment.requestedAt().plusSeconds(5), true, NOT_FOUND_IS_FINAL_AFTER, true));

        assertThat(explained.action()).isEqualTo(SyncAction.NONE);
        assertThat(explained.event()).isEmpty();
        assertThat(payment.status()).isEqualTo(PaymentStatus.APPROVED);
    }

    @ParameterizedTest(name = "{0} + PG {1}, order {2}")
    @MethodSource("everySettleCombination")
    void settlingFollowsTheTable(String situation, String answer, String order) {
        Payment payment = SITUATIONS.get(situation).get();
        PaymentStatus before = payment.status();
        CustomerNotice noticeBefore = payment.customerNotice();
        Row row = match(SETTLE, situation, answer, order);
        Instant now = payment.requestedAt().plus(answer.equals("NOT_FOUND_OLD")
                ? NOT_FOUND_IS_FINAL_AFTER.plusSeconds(1) : NOT_FOUND_IS_FINAL_AFTER.minusSeconds(30));

        Decision<SyncAction> settlement = payment.settleWith(ANSWERS.get(answer).apply(payment),
                new SettleCircumstances(now, order.equals("payable"), NOT_FOUND_IS_FINAL_AFTER));

        assertThat(settlement.action()).as("action").isEqualTo(SyncAction.valueOf(row.action()));
        assertThat(payment.status()).as("status after")
                .isEqualTo(row.after().equals("=") ? before : PaymentStatus.valueOf(row.after()));
        assertThat(settlement.event().isPresent()).as("an event exactly when the state changed")
                .isEqualTo(payment.status() != before);
        assertThat(payment.customerNotice()).as("what the customer was told never changes here").isEqualTo(noticeBefore);
    }

    @Test
    void everySituationIsReachedThroughTheRealVerbs() {
        SITUATIONS.forEach((name, build) -> {
            Payment payment = build.get();
            assertThat(payment.status() + "/" + payment.customerNotice()).isEqualTo(name.split(" ")[0]);
        });
    }

    /** outcome | status after | notice | verdict | failure code. */
    private static final Map<String, Function<Payment, PgOutcome>> OUTCOMES = new LinkedHashMap<>();

    static {
        OUTCOMES.put("confirm DONE", p -> new PgOutcome.Answered(pg(p, PgState.DONE)));
        OUTCOMES.put("confirm DONE other amount", p -> new PgOutcome.Answered(
                withAmount(pg(p, PgState.DONE), p.money().amount() + 500)));
        OUTCOMES.put("confirm DONE other key", p -> new PgOutcome.Answered(new PgStatus(PgState.DONE, "pk-x",
                p.orderId().toString(), p.money().amount(), "tx", T0)));
        OUTCOMES.put("confirm IN_PROGRESS", p -> new PgOutcome.Answered(pg(p, PgState.IN_PROGRESS)));
        OUTCOMES.put("confirm ABORTED", p -> new PgOutcome.Answered(pg(p, PgState.ABORTED)));
        OUTCOMES.put("timeout, query DONE", p -> new PgOutcome.Asked(pg(p, PgState.DONE), PgOutcome.READ_TIMEOUT));
        OUTCOMES.put("timeout, query DONE other amount", p -> new PgOutcome.Asked(
                withAmount(pg(p, PgState.DONE), 1), PgOutcome.READ_TIMEOUT));
        OUTCOMES.put("timeout, query NOT_FOUND", p -> new PgOutcome.Asked(PgStatus.notFound(), PgOutcome.READ_TIMEOUT));
        OUTCOMES.put("409, query IN_PROGRESS", p -> new PgOutcome.Asked(pg(p, PgState.IN_PROGRESS),
                "PG_IDEMPOTENT_REQUEST_PROCESSING"));
        OUTCOMES.put("lost, query READY", p -> new PgOutcome.Asked(pg(p, PgState.READY), PgOutcome.ANSWER_LOST));
        OUTCOMES.put("lost, query ABORTED", p -> new PgOutcome.Asked(pg(p, PgState.ABORTED), PgOutcome.ANSWER_LOST));
        OUTCOMES.put("lost, query CANCELED", p -> new PgOutcome.Asked(pg(p, PgState.CANCELED), PgOutcome.ANSWER_LOST));
        OUTCOMES.put("lost, query EXPIRED", p -> new PgOutcome.Asked(pg(p, PgState.EXPIRED), PgOutcome.ANSWER_LOST));
        OUTCOMES.put("400 EXCEED_MAX_CARD_LIMIT", p -> refused(400, "EXCEED_MAX_CARD_LIMIT"));
        OUTCOMES.put("403 REJECT_CARD_PAYMENT", p -> refused(403, "REJECT_CARD_PAYMENT"));
        OUTCOMES.put("401 UNAUTHORIZED_KEY", p -> refused(401, "UNAUTHORIZED_KEY"));
        OUTCOMES.put("403 FORBIDDEN_REQUEST", p -> refused(403, "FORBIDDEN_REQUEST"));
        OUTCOMES.put("400 INVALID_API_KEY", p -> refused(400, "INVALID_API_KEY"));
        OUTCOMES.put("409 IDEMPOTENT_REQUEST_PROCESSING", p -> refused(409, "IDEMPOTENT_REQUEST_PROCESSING"));
        OUTCOMES.put("429 TOO_MANY_REQUESTS", p -> refused(429, "TOO_MANY_REQUESTS"));
        OUTCOMES.put("400 ALREADY_PROCESSED_PAYMENT", p -> refused(400, "ALREADY_PROCESSED_PAYMENT"));
        OUTCOMES.put("never reached", p -> new PgOutcome.NotReached());
        OUTCOMES.put("lost, query failed", p -> new PgOutcome.Unknown(PgOutcome.ANSWER_LOST));
    }

    private static final List<Row> RECORD = rows("""
            confirm DONE                      | APPROVED | APPROVED | APPROVED             | -
            confirm DONE other amount         | UNKNOWN  | PENDING  | MISMATCH             | PG_AMOUNT_MISMATCH
            confirm DONE other key            | UNKNOWN  | PENDING  | MISMATCH             | PG_KEY_MISMATCH
            confirm IN_PROGRESS               | UNKNOWN  | PENDING  | PROCESSING_ASYNC     | PG_IN_PROGRESS
            confirm ABORTED                   | FAILED   | FAILED   | NOTHING_CHARGED      | PG_ABORTED
            timeout, query DONE               | APPROVED | APPROVED | APPROVED             | -
            timeout, query DONE other amount  | UNKNOWN  | PENDING  | MISMATCH             | PG_AMOUNT_MISMATCH
            timeout, query NOT_FOUND          | UNKNOWN  | PENDING  | TIMED_OUT            | PG_READ_TIMEOUT
            409, query IN_PROGRESS            | UNKNOWN  | PENDING  | UNDECIDED            | PG_IDEMPOTENT_REQUEST_PROCESSING
            lost, query READY                 | UNKNOWN  | PENDING  | UNDECIDED            | PG_ANSWER_LOST
            lost, query ABORTED               | FAILED   | FAILED   | NOTHING_CHARGED      | PG_ABORTED
            lost, query CANCELED              | FAILED   | FAILED   | NOTHING_CHARGED      | PG_CANCELED
            lost, query EXPIRED               | FAILED   | FAILED   | NOTHING_CHARGED      | PG_EXPIRED
            400 EXCEED_MAX_CARD_LIMIT         | DECLINED | DECLINED | DECLINED             | EXCEED_MAX_CARD_LIMIT
            403 REJECT_CARD_PAYMENT           | DECLINED | DECLINED | DECLINED             | REJECT_CARD_PAYMENT
            401 UNAUTHORIZED_KEY              | FAILED   | FAILED   | CREDENTIALS_REJECTED | PG_AUTH_FAILED
            403 FORBIDDEN_REQUEST             | FAILED   | FAILED   | CREDENTIALS_REJECTED | PG_AUTH_FAILED
            400 INVALID_API_KEY               | FAILED   | FAILED   | CREDENTIALS_REJECTED | PG_AUTH_FAILED
            409 IDEMPOTENT_REQUEST_PROCESSING | UNKNOWN  | PENDING  | UNDECIDED            | PG_IDEMPOTENT_REQUEST_PROCESSING
            429 TOO_MANY_REQUESTS             | UNKNOWN  | PENDING  | UNDECIDED            | PG_TOO_MANY_REQUESTS
            400 ALREADY_PROCESSED_PAYMENT     | UNKNOWN  | PENDING  | UNDECIDED            | PG_ALREADY_PROCESSED_PAYMENT
            never reached                     | FAILED   | FAILED   | NOTHING_CHARGED      | PG_CONNECT_FAILED
            lost, query failed                | UNKNOWN  | PENDING  | UNDECIDED            | PG_ANSWER_LOST
            """);

    static Stream<String> everyOutcome() {
        return OUTCOMES.keySet().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyOutcome")
    void aConfirmOutcomeIsRecordedByTheTable(String outcome) {
        Payment payment = aPayment().build();
        Row row = RECORD.stream().filter(r -> r.cells()[0].equals(outcome)).findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + outcome));

        Payment.Recorded recorded = payment.record(OUTCOMES.get(outcome).apply(payment), T0.plusSeconds(1));

        assertThat(payment.status()).isEqualTo(PaymentStatus.valueOf(row.cells()[1]));
        assertThat(payment.customerNotice()).isEqualTo(CustomerNotice.valueOf(row.cells()[2]));
        assertThat(recorded.verdict()).isEqualTo(Verdict.valueOf(row.cells()[3]));
        assertThat(payment.failureCode()).isEqualTo(row.cells()[4].equals("-") ? null : row.cells()[4]);
        assertThat(recorded.event().paymentId()).isEqualTo(payment.id().value());
    }

    @Test
    void everyRecordRowIsAnOutcomeAndOnlyARequestedPaymentRecordsOne() {
        assertThat(RECORD).extracting(r -> r.cells()[0]).containsExactlyElementsOf(OUTCOMES.keySet());
        for (String situation : SITUATIONS.keySet()) {
            Payment payment = SITUATIONS.get(situation).get();
            if (payment.status() != PaymentStatus.REQUESTED) {
                assertThatThrownBy(() -> payment.record(new PgOutcome.NotReached(), T0))
                        .as(situation).isInstanceOf(IllegalTransitionException.class);
            }
        }
    }

    @Test
    void anOwedCancelIsWrittenOnlyOnThePgsCanceled() {
        Payment owed = aPayment().approved().refundRequested().build();
        assertThat(owed.status()).isEqualTo(PaymentStatus.CANCEL_OWED);
        assertThat(owed.canceledAtPg(pg(owed, PgState.DONE), T0).action()).isEqualTo(SyncAction.RETRY_LATER);
        assertThat(owed.status()).isEqualTo(PaymentStatus.CANCEL_OWED);

        assertThat(owed.canceledAtPg(pg(owed, PgState.CANCELED), T0).action()).isEqualTo(SyncAction.CANCELED);
        assertThat(owed.failureCode()).isEqualTo(Payment.REFUNDED);
        assertThat(owed.canceledAtPg(pg(owed, PgState.CANCELED), T0).action()).as("a repeat").isEqualTo(SyncAction.NONE);
        assertThatThrownBy(() -> aPayment().approved().build().canceledAtPg(pg(owed, PgState.CANCELED), T0))
                .as("nothing is cancelled that was not owed first").isInstanceOf(IllegalTransitionException.class);
    }

    @Test
    void aLateApprovalIsOwedBackWithTheApprovalsTransactionKey() {
        Payment failed = aPayment().unknown().settledAtPg(PgState.NOT_FOUND).build();
        PgStatus late = pg(failed, PgState.DONE);

        Decision<SyncAction> settlement = failed.settleWith(late, new SettleCircumstances(T0, true,
                NOT_FOUND_IS_FINAL_AFTER));

        assertThat(settlement.event()).get().isInstanceOfSatisfying(dev.payments.contracts.PaymentCancelOwed.class,
                event -> {
                    assertThat(event.reason()).isEqualTo(Payment.LATE_APPROVAL);
                    assertThat(event.pgTransactionKey()).isEqualTo(late.transactionKey());
                });
        assertThat(failed.pgTransactionKey()).isEqualTo(late.transactionKey());
    }

    private record Row(String[] cells) {

        String status() {
            return cells[0].split("\\s+")[0];
        }

        String notice() {
            return cells[0].split("\\s+")[1];
        }

        String action() {
            return cells[3];
        }

        String after() {
            return cells[4];
        }
    }

    private static List<Row> rows(String table) {
        return table.lines().filter(line -> !line.isBlank())
                .map(line -> new Row(Arrays.stream(line.split("\\|")).map(String::trim).toArray(String[]::new)))
                .toList();
    }

    private static Row match(List<Row> table, String situation, String answer, String order) {
        String status = situation.split("/")[0];
        String notice = situation.split("[/ ]")[1];
        boolean neverReached = situation.endsWith("never-reached");
        return table.stream()
                .filter(r -> r.status().equals("NEVER_REACHED") ? neverReached
                        : r.status().equals(status) || r.status().equals("UNSETTLED")
                        && (status.equals("REQUESTED") || status.equals("UNKNOWN")))
                .filter(r -> matches(r.notice(), notice))
                .filter(r -> matches(r.cells()[1], answer))
                .filter(r -> matches(r.cells()[2], order))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + situation + " + " + answer + ", " + order));
    }

    private static boolean matches(String pattern, String value) {
        return pattern.equals("*") || pattern.equals(value)
                || pattern.endsWith("*") && value.startsWith(pattern.substring(0, pattern.length() - 1));
    }

    private static PgStatus withAmount(PgStatus status, long amount) {
        return new PgStatus(status.state(), status.paymentKey(), status.orderId(), amount, status.transactionKey(),
                status.approvedAt());
    }

    private static PgOutcome refused(int status, String code) {
        return new PgOutcome.Refused(new PgRefusal(status, code, "message"));
    }
}
