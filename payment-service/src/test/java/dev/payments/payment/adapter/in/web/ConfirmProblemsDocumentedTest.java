package dev.payments.payment.adapter.in.web;

import dev.payments.payment.application.ConfirmResult.Refusal;
import dev.payments.support.api.ProblemResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.Method;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client of the confirm endpoint switches on the problem codes its OpenAPI document lists: every refusal the
 * confirm can answer is listed there under the status it is answered with (a refusal added to {@link Refusal} and
 * mapped in the controller but not documented is a code the client cannot know of).
 */
class ConfirmProblemsDocumentedTest {

    @ParameterizedTest
    @EnumSource(Refusal.class)
    void everyRefusalIsDocumentedUnderTheStatusItIsAnsweredWith(Refusal refusal) throws Exception {
        Method confirm = Arrays.stream(PaymentController.class.getDeclaredMethods())
                .filter(method -> method.getName().equals("confirm")).findFirst().orElseThrow();
        int status = PaymentController.statusOf(refusal).value();

        assertThat(confirm.getAnnotationsByType(ProblemResponse.class))
                .as("confirm's documented problems")
                .anySatisfy(problem -> {
                    assertThat(problem.status()).isEqualTo(status);
                    assertThat(problem.codes()).contains(refusal.name());
                });
    }
}
