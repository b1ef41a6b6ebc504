package dev.payments.localstack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * A JVM that starts a stack the way the drills do ({@link LocalStack#start}, no {@code close()} of its own) and then
 * only waits: what a signal to it leaves running is what a killed drill launcher leaves.
 * Arguments: the fake repository, the data directory.
 */
public final class StackUntilSignalled {

    public static void main(String[] args) throws InterruptedException {
        LocalStack.start(LocalStackOptions.builder()
                .repoDir(Path.of(args[0]))
                .dataDir(Path.of(args[1]))
                .randomPorts()
                .controlPort(-1)
                .children(Set.of(Component.ORDER_SERVICE))
                .jvmOptions(List.of("-Xmx32m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"))
                .stopTimeout(Duration.ofSeconds(10))
                .healthTimeout(Duration.ofSeconds(120))
                .build());
        System.out.println(READY);
        System.out.flush();
        Thread.sleep(Duration.ofMinutes(5).toMillis());
    }

    static final String READY = "stack started";
}
