package dev.payments.localstack.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/** Picks loopback ports that are free right now (a small race with other processes is accepted). */
public final class FreePorts {

    private FreePorts() {
    }

    public static int pick() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on loopback", e);
        }
    }

    /** {@code requested} itself, or a free port when it is 0. */
    public static int orPick(int requested) {
        return requested == 0 ? pick() : requested;
    }

    /**
     * Ports for one owner of many (a whole stack): a port closed right after it was found free may be found free
     * again, and two components given one port would fail only at start; this never hands out a port twice.
     */
    public static final class Distinct {

        private final Set<Integer> handedOut = new HashSet<>();

        /** {@code requested} itself, or a free port it has not handed out before when it is 0. */
        public synchronized int orPick(int requested) {
            int port = requested;
            while (port == 0 || (requested == 0 && handedOut.contains(port))) {
                port = pick();
            }
            handedOut.add(port);
            return port;
        }
    }

    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
