package dev.payments.support.settings;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.core.env.Environment;

import java.util.ArrayList;
import java.util.List;

/**
 * Refuses to start a service whose settings are unsafe, before any bean exists: nothing has opened a connection,
 * bound a port or read a secret yet. Runs as a bean factory post-processor rather than on the environment because
 * only then is every property source in place (a test's {@code @DynamicPropertySource}, too). All problems are
 * reported at once, so an operator fixes a deployment in one round.
 */
public class SettingsCheck implements BeanFactoryPostProcessor, ApplicationContextAware {

    private ApplicationContext context;

    @Override
    public void setApplicationContext(ApplicationContext applicationContext) {
        this.context = applicationContext;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        Environment environment = context.getEnvironment();
        List<String> problems = new ArrayList<>();
        if (context instanceof WebServerApplicationContext) {
            problems.addAll(ManagementPort.problems(environment));
        }
        if (!problems.isEmpty()) {
            throw new UnsafeSettingsException(problems, "Give " + ManagementPort.PORT + " (MANAGEMENT_SERVER_PORT) a port "
                    + "of its own, as each service's application.yml does; -1 turns actuator off.");
        }
    }
}
