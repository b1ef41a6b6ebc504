package dev.payments.reconciliation.adapter.out.payment;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.payments.reconciliation.domain.settling.FailureStage;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** How a 502 from payment-service's sync is read: the stage it names decides outage vs. money held. */
class HttpPaymentSyncTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void theStagePaymentServiceNamesIsTheStage() throws Exception {
        assertThat(stage("{\"stage\":\"CANCEL\",\"pgState\":\"DONE\"}")).contains(FailureStage.CANCEL);
        assertThat(stage("{\"stage\":\"STATUS_QUERY\",\"detail\":\"PG refused to cancel\"}"))
                .as("the stage, never the wording of the detail").contains(FailureStage.STATUS_QUERY);
    }

    @Test
    void aMissingOrUnknownStageIsNoStage() throws Exception {
        assertThat(stage("{\"detail\":\"PG refused to cancel pk_1\"}")).isEmpty();
        assertThat(stage("{\"stage\":\"compensation\"}")).isEmpty();
    }

    private Optional<FailureStage> stage(String body) throws Exception {
        return HttpPaymentSync.stage(json.readTree(body));
    }
}
