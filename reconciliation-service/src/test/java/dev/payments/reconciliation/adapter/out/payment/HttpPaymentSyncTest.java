package dev.payments.reconciliation.adapter.out.payment;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.reconciliation.domain.settling.FailureStage;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How a 502 from payment-service's sync is read: which stage broke decides outage vs. money held. */
class HttpPaymentSyncTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void anExplicitStageWins() throws Exception {
        assertThat(stage("{\"stage\":\"CANCEL\"}", "anything")).isEqualTo(FailureStage.CANCEL);
        assertThat(stage("{\"stage\":\"compensation\"}", "anything")).isEqualTo(FailureStage.CANCEL);
        assertThat(stage("{\"stage\":\"STATUS_QUERY\"}", "PG refused to cancel")).isEqualTo(FailureStage.STATUS_QUERY);
        assertThat(stage("{\"stage\":\"query\"}", "x")).isEqualTo(FailureStage.STATUS_QUERY);
    }

    @Test
    void withoutAStageACancelThatNamesItselfIsTheCancel() throws Exception {
        // payment-service's messages today: a refused cancel, and an unreachable cancel (its URL ends in /cancel).
        assertThat(stage("{}", "The PG could not settle payment x: PG refused to cancel pk_1: NOT_CANCELABLE_PAYMENT"))
                .isEqualTo(FailureStage.CANCEL);
        assertThat(stage("{}", "No connection to the PG at http://pg/v1/payments/pk_1/cancel"))
                .isEqualTo(FailureStage.CANCEL);
    }

    @Test
    void otherwiseTheStageIsUnknownAndTheSettlerAsksThePg() throws Exception {
        // A cancel answered 5xx or timing out does not name itself: diagnosis by the PG's own status decides.
        assertThat(stage("{}", "PG answered 500 FAILED_INTERNAL_SYSTEM_PROCESSING: boom"))
                .isEqualTo(FailureStage.UNKNOWN);
        assertThat(stage("{}", "No answer from the PG within PT5S")).isEqualTo(FailureStage.UNKNOWN);
    }

    private FailureStage stage(String body, String detail) throws Exception {
        return HttpPaymentSync.stage(json.readTree(body), detail);
    }
}
