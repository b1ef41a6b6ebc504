package dev.payments.support.web.overload;

import org.apache.coyote.ProtocolHandler;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Gives the service's Tomcat connector a {@link StampingExecutor} sized by {@code server.tomcat.threads.*}, as the
 * connector would have sized its own, and stops it after the web server has stopped (Tomcat stops only executors
 * it created itself).
 */
final class StampedTomcatExecutor implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, DisposableBean {

    /** Tomcat's default for {@code threadsMaxIdleTime}: an idle thread above the spare ones ends after a minute. */
    private static final int MAX_IDLE_MILLIS = 60_000;

    private final ServerProperties.Tomcat.Threads threads;
    private final List<StampingExecutor> executors = new CopyOnWriteArrayList<>();

    StampedTomcatExecutor(ServerProperties.Tomcat.Threads threads) {
        this.threads = threads;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addConnectorCustomizers(connector -> {
            ProtocolHandler protocol = connector.getProtocolHandler();
            StampingExecutor executor = StampingExecutor.create("http-nio-" + connector.getPort() + "-exec-",
                    threads.getMinSpare(), threads.getMax(), threads.getMaxQueueCapacity(), MAX_IDLE_MILLIS);
            executors.add(executor);
            protocol.setExecutor(executor);
        });
    }

    @Override
    public void destroy() throws InterruptedException {
        for (StampingExecutor executor : executors) {
            executor.shutdown();
            if (!executor.awaitTermination(5, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        }
    }
}
