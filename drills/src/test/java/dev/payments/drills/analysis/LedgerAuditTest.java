package dev.payments.drills.analysis;

import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.payments.drills.testing.DrillTestData.incident;
import static dev.payments.drills.testing.DrillTestData.order;
import static dev.payments.drills.testing.DrillTestData.states;
import static org.assertj.core.api.Assertions.assertThat;

class LedgerAuditTest {

    @Test
    void everyPgApprovalIsAccountedForByExactlyOneTermInOrder() {
        var audit = LedgerAudit.of(states(
                        order("paid", "PAID", "APPROVED", 1, 0),
                        order("refunded", "CANCELED", "CANCELED", 1, 1),
                        order("paid-then-cancelled", "PAID", "APPROVED", 1, 1),
                        order("incident", "FAILED", "FAILED", 1, 0),
                        order("in-flight", "PAYMENT_PENDING", "UNKNOWN", 1, 0),
                        order("declined", "FAILED", "DECLINED", 0, 0)),
                List.of(incident("incident")), null, "no reconciliation");

        assertThat(audit.pgApprovals()).isEqualTo(5);
        assertThat(audit.paidOrders()).isEqualTo(1);
        assertThat(audit.cancellations()).as("a cancel at the PG wins over PAID").isEqualTo(2);
        assertThat(audit.incidents()).isEqualTo(1);
        assertThat(audit.inFlight()).isEqualTo(1);
        assertThat(audit.lost()).isZero();
        assertThat(audit.holds()).isTrue();
        assertThat(audit.identity())
                .isEqualTo("5 PG approvals = 1 PAID + 2 cancellations + 1 incidents + 1 in flight + 0 unaccounted");
    }

    @Test
    void aPgApprovalNobodyAccountsForIsLost() {
        var audit = LedgerAudit.of(states(
                        order("paid", "PAID", "APPROVED", 1, 0),
                        order("told-failed", "FAILED", "FAILED", 1, 0)),
                List.of(), null, "no reconciliation");

        assertThat(audit.lost()).isEqualTo(1);
        assertThat(audit.lostOrders()).containsExactly("told-failed");
        assertThat(audit.holds()).isFalse();
    }

    @Test
    void twoApprovalsOfOneOrderAreADoubleCharge() {
        var audit = LedgerAudit.of(states(order("twice", "PAID", "APPROVED", 2, 0)), List.of(), null, "");

        assertThat(audit.doubled()).isEqualTo(1);
        assertThat(audit.doubledOrders()).containsExactly("twice");
        assertThat(audit.holds()).isFalse();
    }

    @Test
    void paidWithoutAnApprovalAtThePgBreaksTheIdentity() {
        var audit = LedgerAudit.of(states(order("phantom", "PAID", "APPROVED", 0, 0)), List.of(), null, "");

        assertThat(audit.paidWithoutPgApproval()).isEqualTo(1);
        assertThat(audit.pgApprovals()).isZero();
        assertThat(audit.holds()).isFalse();
    }

    @Test
    void countsApprovedPaymentsWhoseOrderIsNotPaidYet() {
        var audit = LedgerAudit.of(states(
                        order("behind", "PAYMENT_PENDING", "APPROVED", 1, 0),
                        order("paid", "PAID", "APPROVED", 1, 0),
                        // Refunded in parts: the payment stays APPROVED, the order is not behind it.
                        order("partly-refunded", "PARTIALLY_REFUNDED", "APPROVED", 1, 1),
                        order("refunded", "REFUNDED", "APPROVED", 1, 2)),
                List.of(), null, "");

        assertThat(audit.approvedPayments()).isEqualTo(4);
        assertThat(audit.approvedButOrderNotPaid()).isEqualTo(1);
        assertThat(audit.orderStatuses()).containsEntry("PAYMENT_PENDING", 1L).containsEntry("PAID", 1L);
        assertThat(audit.holds()).as("behind is accounted for as PAID by its payment").isTrue();
    }
}
