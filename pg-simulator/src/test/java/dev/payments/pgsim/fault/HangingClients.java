package dev.payments.pgsim.fault;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Raw sockets that send a confirm and never read: cheap on the client, so only the server's cost shows. */
final class HangingClients implements AutoCloseable {

    private final List<Socket> sockets;

    private HangingClients(List<Socket> sockets) {
        this.sockets = sockets;
    }

    static HangingClients open(int port, int count) throws IOException {
        byte[] body = "{\"paymentKey\":\"pk-hang\",\"orderId\":\"order-hang\",\"amount\":1000}".getBytes(StandardCharsets.UTF_8);
        byte[] request = ("POST /v1/payments/confirm HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Basic dGVzdF9za19zaW11bGF0b3I6\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Socket socket = new Socket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.write(body);
            out.flush();
            sockets.add(socket);
        }
        return new HangingClients(sockets);
    }

    /** True when every socket sees end-of-stream (or a reset) without any response bytes. */
    boolean allClosedByServer(Duration within) throws IOException {
        for (Socket socket : sockets) {
            socket.setSoTimeout((int) within.toMillis());
            try {
                InputStream in = socket.getInputStream();
                if (in.read() != -1) {
                    return false;
                }
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException e) {
                // A reset also means the server let go without answering, which is what this checks.
                continue;
            }
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}
