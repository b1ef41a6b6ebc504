package dev.payments.support.settings;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.Environment;

import java.util.ArrayList;
import java.util.List;

/**
 * Refuses to start a service whose settings are unsafe, before anything else runs: no auto-configuration condition
 * has been evaluated (those resolve placeholders such as {@code ${spring.datasource.url}} and would fail first, with
 * a worse message), no bean exists, nothing has opened a connection, bound a port or read a secret. It runs when the
 * context refreshes rather than on the environment because only then is every property source in place (a test's
 * {@code @DynamicPropertySource}, too). All problems are reported at once, so an operator fixes a deployment in one
 * round.
 */
public class SettingsCheck implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        // Post-processors added to the context run before any declared as a bean, configuration parsing included.
        context.addBeanFactoryPostProcessor(new Check(context));
    }

    private record Check(ConfigurableApplicationContext context) implements BeanDefinitionRegistryPostProcessor {

        @Override
        public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
            List<String> problems = problems(context.getEnvironment(), context instanceof WebServerApplicationContext);
            if (!problems.isEmpty()) {
                throw new UnsafeSettingsException(problems, "Give every setting named above (a Kubernetes Secret, the "
                        + "environment, --name=value); " + ManagementPort.PORT + " a port of its own (-1 turns "
                        + "actuator off). On a developer machine run with the local profile "
                        + "(--spring.profiles.active=local): its application-local.yml holds the local stack's values.");
            }
        }

        @Override
        public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        }
    }

    static List<String> problems(Environment environment, boolean webServer) {
        List<String> problems = new ArrayList<>();
        if (webServer) {
            problems.addAll(ManagementPort.problems(environment));
        }
        problems.addAll(RequiredSettings.missing(environment));
        return problems;
    }
}
