package dev.payments.outbox.inbox;

import org.apache.kafka.common.TopicPartition;
import org.springframework.kafka.listener.BackOffHandler;
import org.springframework.kafka.listener.ContainerPausingBackOffHandler;
import org.springframework.kafka.listener.ListenerContainerPauseService;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * Waits out a retry's back-off by pausing the listener container rather than sleeping on its consumer thread
 * (Spring Kafka's {@link ContainerPausingBackOffHandler}): the consumer keeps polling, so it stays in its group
 * however long the database is away, and it resumes on a scheduler thread of its own. With a concurrent container
 * the whole listener pauses; its threads share the one database.
 *
 * <p>Owns that scheduler, so it is not a {@code TaskScheduler} bean that would displace a service's own.
 */
public final class ListenerPauses implements BackOffHandler, AutoCloseable {

    private final ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
    private final ContainerPausingBackOffHandler pausing;

    public ListenerPauses() {
        scheduler.setThreadNamePrefix("inbox-resume-");
        scheduler.setDaemon(true);
        scheduler.initialize();
        pausing = new ContainerPausingBackOffHandler(new ListenerContainerPauseService(null, scheduler));
    }

    @Override
    public void onNextBackOff(MessageListenerContainer container, Exception exception, long nextBackOff) {
        pausing.onNextBackOff(container, exception, nextBackOff);
    }

    @Override
    public void onNextBackOff(MessageListenerContainer container, TopicPartition partition, long nextBackOff) {
        pausing.onNextBackOff(container, partition, nextBackOff);
    }

    @Override
    public void close() {
        scheduler.shutdown();
    }
}
