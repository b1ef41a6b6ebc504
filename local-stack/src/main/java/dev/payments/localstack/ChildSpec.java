package dev.payments.localstack;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How to run one child JVM.
 *
 * @param name how operators address it: the component's id, or {@code <id>-<n>} for one of several replicas
 * @param jar the runnable jar; may not exist yet
 * @param arguments application arguments (Spring Boot command-line properties for the services)
 * @param baseUrl where it serves HTTP
 * @param workingDirectory its current directory, so nothing it writes lands in the repository
 */
record ChildSpec(Component component, String name, Path java, Path jar, List<String> jvmOptions, List<String> arguments,
                 String baseUrl, HealthProbe probe, Path logFile, Path pidFile, Path workingDirectory) {

    /** Marks the process so {@code ps} and a later launcher can tell which component it is. */
    static final String COMPONENT_PROPERTY = "local-stack.component";

    ChildSpec {
        jvmOptions = List.copyOf(jvmOptions);
        arguments = List.copyOf(arguments);
    }

    List<String> command() {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmOptions);
        command.add(marker());
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(arguments);
        return command;
    }

    String marker() {
        return "-D" + COMPONENT_PROPERTY + "=" + name;
    }
}
