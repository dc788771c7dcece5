package io.github.jvmfit.sidecar;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

/**
 * A real HTTP upstream on loopback (the JDK's server): it answers
 * "NAME PATH", counts requests and the client ports they came from (one
 * port per TCP connection), and can be told to sleep or fail.
 */
final class Upstream implements AutoCloseable {
    final String name;
    final AtomicInteger hits = new AtomicInteger();
    final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
    volatile long sleepMs;
    volatile int status = 200;
    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool();

    Upstream(String name) throws IOException {
        this.name = name;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(pool);
        server.createContext("/", ex -> {
            hits.incrementAndGet();
            clientPorts.add(ex.getRemoteAddress().getPort());
            ex.getRequestBody().readAllBytes();
            if (sleepMs > 0) {
                try {
                    Thread.sleep(sleepMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = (name + " " + ex.getRequestURI().getPath() + " host=" + ex.getRequestHeaders().getFirst("Host"))
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("X-Upstream", name);
            ex.sendResponseHeaders(status, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    String addr() {
        return "127.0.0.1:" + port();
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
