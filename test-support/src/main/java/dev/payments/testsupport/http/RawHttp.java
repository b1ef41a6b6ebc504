package dev.payments.testsupport.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A request written on a raw socket, for what no HTTP client sends: a declared 200 MB body, a chunked body that never
 * ends, an encoded NUL in the path, headers over any limit. The body is written on one thread while the answer is read
 * on another, so an answer that arrives while the client is still sending is seen, with how much had been sent by then.
 */
public final class RawHttp {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int READ_TIMEOUT_MS = 30_000;

    private RawHttp() {
    }

    /** The answer; {@code status} is -1 when none came within the timeout, {@code raw} then says so. */
    public record Answer(int status, String contentType, JsonNode json, String raw, long bodyBytesSent) {

        public String code() {
            return json.path("code").asText();
        }

        @Override
        public String toString() {
            return raw.length() > 600 ? raw.substring(0, 600) + "..." : raw;
        }
    }

    /** A request with no body or a small one written out in {@code head}; {@code head} ends with the blank line. */
    public static Answer send(int port, String head) {
        return send(port, head, 0, false);
    }

    /**
     * @param head      the request line and headers, ending with the blank line
     * @param bodyBytes how many bytes of filler body to send after the head (as 16 KB chunks when {@code chunked}, never
     *                  with the last chunk, so a server that waits for the end waits forever)
     */
    public static Answer send(int port, String head, long bodyBytes, boolean chunked) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            AtomicLong sent = new AtomicLong();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> writeBody(out, bodyBytes, chunked, sent));
            String raw;
            try {
                raw = readAnswer(socket.getInputStream());
            } catch (SocketTimeoutException e) {
                raw = "(no answer within " + READ_TIMEOUT_MS / 1000 + " s, " + sent.get() + " bytes of body sent)";
            } catch (IOException e) {
                raw = "(connection failed before an answer: " + e + ", " + sent.get() + " bytes of body sent)";
            }
            long sentWhenAnswered = sent.get();
            socket.close();
            writer.join();
            return parse(raw, sentWhenAnswered);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeBody(OutputStream out, long bodyBytes, boolean chunked, AtomicLong sent) {
        byte[] chunk = new byte[16 * 1024];
        Arrays.fill(chunk, (byte) ' ');
        byte[] chunkHead = (Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        byte[] crlf = "\r\n".getBytes(StandardCharsets.ISO_8859_1);
        try {
            while (sent.get() < bodyBytes) {
                if (chunked) {
                    out.write(chunkHead);
                }
                out.write(chunk);
                if (chunked) {
                    out.write(crlf);
                }
                sent.addAndGet(chunk.length);
            }
            out.flush();
        } catch (IOException closedByTheServer) {
            // The server answered and closed the connection: what the callers of send() wait for.
        }
    }

    /** The status line and headers, then the body as far as Content-Length or the chunks say. */
    private static String readAnswer(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            head.write(b);
            if (head.size() >= 4 && head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                break;
            }
        }
        String headers = head.toString(StandardCharsets.ISO_8859_1);
        String lower = headers.toLowerCase(Locale.ROOT);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int lengthAt = lower.indexOf("content-length:");
        if (lengthAt >= 0) {
            int length = Integer.parseInt(lower.substring(lengthAt + 15, lower.indexOf("\r\n", lengthAt)).trim());
            body.write(in.readNBytes(length));
        } else if (lower.contains("transfer-encoding: chunked")) {
            for (int size = Integer.parseInt(readLine(in).trim(), 16); size > 0;
                 size = Integer.parseInt(readLine(in).trim(), 16)) {
                body.write(in.readNBytes(size));
                readLine(in);
            }
        }
        return headers + body.toString(StandardCharsets.UTF_8);
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != -1 && b != '\n') {
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    private static Answer parse(String raw, long sent) {
        int headEnd = raw.indexOf("\r\n\r\n");
        if (!raw.startsWith("HTTP/1.1 ") || headEnd < 0) {
            return new Answer(-1, "", JSON.nullNode(), raw, sent);
        }
        String contentType = "";
        for (String line : raw.substring(0, headEnd).split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-type:")) {
                contentType = line.substring(13).trim();
            }
        }
        String body = raw.substring(headEnd + 4);
        JsonNode json;
        try {
            json = body.isBlank() ? JSON.nullNode() : JSON.readTree(body);
        } catch (IOException notJson) {
            json = JSON.nullNode();
        }
        return new Answer(Integer.parseInt(raw.substring(9, 12)), contentType, json, raw, sent);
    }
}
