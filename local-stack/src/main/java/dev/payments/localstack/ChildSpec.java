package dev.payments.localstack;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

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

    private static final Pattern SECRET_OPTION = Pattern.compile("password|secret|jaas|credential|private");

    ChildSpec {
        jvmOptions = List.copyOf(jvmOptions);
        arguments = List.copyOf(arguments);
    }

    List<String> command() {
        return command(jar, List.of());
    }

    /** The command with another runnable jar (the same application, extracted) and more JVM options. */
    List<String> command(Path runnable, List<String> moreJvmOptions) {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmOptions);
        command.addAll(moreJvmOptions);
        command.add(marker());
        command.add("-jar");
        command.add(runnable.toString());
        command.addAll(arguments);
        return command;
    }

    /**
     * The command as it may be written to the child's log: the value of every option that names a password, secret
     * or JAAS line is masked. Logs are read, copied and shipped; the local profile's secrets are secrets of the same
     * shape as production's, so the habit and the check (the system tests grep every log) hold for them too.
     */
    String shownCommand() {
        return shown(command());
    }

    /** {@code command} as {@link #shownCommand()} shows it. */
    String shown(List<String> command) {
        List<String> shown = new ArrayList<>();
        for (String part : command) {
            int equals = part.indexOf('=');
            String name = equals < 0 ? "" : part.substring(0, equals).toLowerCase(Locale.ROOT);
            shown.add(SECRET_OPTION.matcher(name).find() ? part.substring(0, equals + 1) + "****" : part);
        }
        return String.join(" ", shown);
    }

    String marker() {
        return "-D" + COMPONENT_PROPERTY + "=" + name;
    }
}
