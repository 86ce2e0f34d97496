package io.logbloom.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;

/**
 * A server that does no work, so the load-test harness can be measured alone on the same box: it
 * answers {@code /ready} with 200, reads and drops every push body ({@code 204}), and answers every
 * other path with 404. {@link ServerBarReport} runs it as a child JVM under the label {@code sink}; the
 * push MB/s it reaches is the most the harness can send, the ceiling of any server measured beside it.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.logbloom.bench.PushSinkServer --port N}.
 *
 * <p>Thread-safe: handlers share no state.
 */
public final class PushSinkServer {
    /** Buffer for draining bodies; a push body is ~100 KB, so a few reads each. */
    private static final int DRAIN_BUFFER_BYTES = 64 * 1024;
    /** Same connection count as the harness sends with, plus room. */
    private static final int HANDLER_THREADS = 8;

    private PushSinkServer() {}

    /** Starts the sink on {@code --port N} (loopback) and serves until the process is killed. */
    public static void main(String[] args) throws IOException {
        int port = 3100;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--port")) {
                port = Integer.parseInt(args[++i]);
            } else if (!args[i].equals("--config") && !args[i].equals("--data")) {
                throw new IllegalArgumentException("unknown flag " + args[i] + " (flags: --port N)");
            } else {
                i++; // accepted and ignored so the report can start the sink like a server jar
            }
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 128);
        server.setExecutor(Executors.newFixedThreadPool(HANDLER_THREADS));
        server.createContext("/", PushSinkServer::handle);
        server.start();
    }

    private static void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        byte[] buffer = new byte[DRAIN_BUFFER_BYTES];
        try (InputStream body = exchange.getRequestBody()) {
            while (body.read(buffer) >= 0) {
                // dropped: the sink measures the sender, not storage
            }
        }
        int status = switch (path) {
            case "/ready" -> 200;
            case "/loki/api/v1/push", "/flush" -> 204;
            default -> 404;
        };
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }
}
