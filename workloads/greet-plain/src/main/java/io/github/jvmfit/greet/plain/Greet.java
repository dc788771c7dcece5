package io.github.jvmfit.greet.plain;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * GET /api/greeting?name=N answers {"message":"hello, N"}; GET /health answers
 * {"status":"UP"}. The port is --port=N (default 8080), on 127.0.0.1.
 */
public final class Greet {
    private Greet() {
    }

    public static void main(String[] args) throws IOException {
        int port = 8080;
        for (String a : args) {
            if (a.startsWith("--port=")) {
                port = Integer.parseInt(a.substring("--port=".length()));
            } else {
                System.err.println("unknown argument " + a + " (known: --port=N)");
                System.exit(2);
            }
        }
        HttpServer server = start(port);
        System.out.println("READY on port " + server.getAddress().getPort());
    }

    static HttpServer start(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.createContext("/api/greeting", ex -> {
            String q = ex.getRequestURI().getRawQuery();
            String name = "world";
            if (q != null) {
                for (String kv : q.split("&")) {
                    if (kv.startsWith("name=")) {
                        name = java.net.URLDecoder.decode(kv.substring(5), StandardCharsets.UTF_8);
                    }
                }
            }
            json(ex, 200, "{\"message\":\"hello, " + name.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}");
        });
        server.createContext("/health", ex -> json(ex, 200, "{\"status\":\"UP\"}"));
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
        return server;
    }

    private static void json(HttpExchange ex, int status, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }
}
