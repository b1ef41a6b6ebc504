package dev.payments.support.settings;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class ManagementPortTest {

    @Test
    void aServiceThatNamesNoManagementPortDoesNotStart() {
        MockEnvironment environment = new MockEnvironment().withProperty("server.port", "8082");

        assertThat(ManagementPort.problems(environment))
                .containsExactly("management.server.port is not set: actuator would be served on the API port 8082");
    }

    @Test
    void aManagementPortEqualToTheApiPortIsRefused() {
        MockEnvironment environment = new MockEnvironment().withProperty("server.port", "8082")
                .withProperty("management.server.port", "8082");

        assertThat(ManagementPort.problems(environment)).singleElement().asString()
                .startsWith("management.server.port=8082 is the API port");
    }

    @Test
    void aPortOfItsOwnOrActuatorOffIsAccepted() {
        assertThat(ManagementPort.problems(new MockEnvironment().withProperty("server.port", "8082")
                .withProperty("management.server.port", "9082"))).isEmpty();
        assertThat(ManagementPort.problems(new MockEnvironment().withProperty("server.port", "8082")
                .withProperty("management.server.port", "-1"))).isEmpty();
        // Random ports in tests: 0 and 0 are two different ports once bound.
        assertThat(ManagementPort.problems(new MockEnvironment().withProperty("server.port", "0")
                .withProperty("management.server.port", "0"))).isEmpty();
    }
}
