package dev.payments.payment.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class WebThreadBudgetTest {

    @Test
    void theShippedBulkheadsLeaveFortyThreadsToTheRestOfTheApi() {
        WebThreadBudget shipped = new WebThreadBudget(200, 150, 10, 40);

        assertThat(shipped.leftWhenThePgHangs()).isEqualTo(40);
    }

    @Test
    void bulkheadsThatWouldTakeTheReservedThreadsAreRefusedAtStartUp() {
        assertThatIllegalStateException()
                .isThrownBy(() -> new WebThreadBudget(200, 200, 10, 40))
                .withMessageContaining("pg-approve 200")
                .withMessageContaining("server.tomcat.threads.max 200");
    }
}
