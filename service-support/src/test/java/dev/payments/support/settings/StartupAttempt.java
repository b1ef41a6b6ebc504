package dev.payments.support.settings;

import org.springframework.boot.builder.SpringApplicationBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts a service as a deployment would, without the local profile and with only the settings given, and says
 * which settings it refused to start without. For each service's test that nothing secret is defaulted (the
 * service-support test-jar). Nothing is connected to: the check runs before any bean exists.
 */
public final class StartupAttempt {

    private StartupAttempt() {
    }

    /** The refusal's lines (each names a property), or an empty list if the service got past the check. */
    public static List<String> refusedSettings(Class<?> application, Map<String, String> given) {
        List<String> arguments = new ArrayList<>(List.of("--server.port=0", "--management.server.port=0",
                "--spring.main.banner-mode=off"));
        given.forEach((name, value) -> arguments.add("--" + name + "=" + value));
        try {
            new SpringApplicationBuilder(application).run(arguments.toArray(String[]::new)).close();
            return List.of();
        } catch (UnsafeSettingsException refused) {
            return refused.problems();
        } catch (RuntimeException other) {
            // Past the check, failing later on the placeholder values (no such database): not a refusal.
            return List.of();
        }
    }

    /** The property each refusal line names. */
    public static List<String> names(List<String> refusals) {
        return refusals.stream().map(line -> line.substring(0, line.indexOf(' '))).toList();
    }
}
