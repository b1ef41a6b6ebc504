package dev.payments.localstack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/** POSIX signals Java has no API for (SIGSTOP, SIGCONT), through {@code kill(1)}. */
final class Signals {

    private Signals() {
    }

    static void send(String signal, OptionalLong pid) {
        long target = pid.orElseThrow(() -> new IllegalStateException("not running: no process to send SIG" + signal));
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(target)).inheritIO().start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + target + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not run kill -" + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted sending SIG" + signal, e);
        }
    }
}
