package io.github.jvmfit.vthreads;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Issue 21's virtual-thread service (JDK 21+): the JDK's HTTP server with a
 * new virtual thread per request, each request sleeping at the bottom of a
 * modest stack (a blocking call). Hundreds sleep at once on a handful of
 * platform threads; while they sleep their stacks are chunks in the heap.
 *
 * <pre>
 * GET /sleep?ms=MS&amp;depth=D  recurse D frames, sleep MS ms: {"virtual","depth","sleptMs","checksum"}
 * GET /health                {"status":"UP"}
 * GET /stats                 requests sleeping now and at most, requests served, platform threads
 * </pre>
 */
public final class VThreads implements AutoCloseable {
    private final Config config;
    private final HttpServer server;
    private final ExecutorService executor;
    private final AtomicInteger sleeping = new AtomicInteger();
    private final AtomicInteger peakSleeping = new AtomicInteger();
    private final AtomicLong requests = new AtomicLong();

    private VThreads(Config config) throws IOException {
        // Otherwise the server writes headers and body as two segments with
        // Nagle's algorithm on, and the client's delayed ACK adds ~40 ms.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        this.config = config;
        this.executor = VirtualThreads.perTaskExecutor();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), config.port()), 1024);
        server.setExecutor(executor);
        server.createContext("/sleep", this::sleep);
        server.createContext("/health", ex -> {
            if (Exchanges.onlyGet(ex)) {
                Exchanges.json(ex, 200, "{\"status\":\"UP\"}");
            }
        });
        server.createContext("/stats", this::stats);
        server.createContext("/", ex -> Exchanges.json(ex, 404, "{\"error\":\"no such path\"}"));
        server.start();
    }

    /** Listens on 127.0.0.1 at the configured port (0 = any free one); refuses a JDK before 21. */
    public static VThreads start(Config config) throws IOException {
        return new VThreads(config);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void sleep(HttpExchange ex) throws IOException {
        if (!Exchanges.onlyGet(ex)) {
            return;
        }
        if (!ex.getRequestURI().getPath().equals("/sleep")) {
            Exchanges.json(ex, 404, "{\"error\":\"no such path\"}");
            return;
        }
        int depth;
        int ms;
        try {
            depth = param(ex, "depth", config.depth(), Config.MAX_DEPTH);
            ms = param(ex, "ms", config.sleepMs(), Config.MAX_SLEEP_MS);
        } catch (IllegalArgumentException e) {
            Exchanges.json(ex, 400, "{\"error\":\"" + e.getMessage() + "\"}");
            return;
        }
        peakSleeping.accumulateAndGet(sleeping.incrementAndGet(), Math::max);
        long sum;
        try {
            sum = descend(depth, depth, 1, ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Exchanges.json(ex, 503, "{\"error\":\"shutting down\"}");
            return;
        } finally {
            sleeping.decrementAndGet();
        }
        requests.incrementAndGet();
        Exchanges.json(ex, 200, "{\"virtual\":" + VirtualThreads.isVirtual(Thread.currentThread()) + ",\"depth\":" + depth
                + ",\"sleptMs\":" + ms + ",\"checksum\":" + sum + "}");
    }

    /** Recurses, then sleeps with the whole stack in use: unmounted, the stack is a chunk in the heap. */
    private static long descend(int left, long a, long b, int ms) throws InterruptedException {
        if (left == 0) {
            if (ms > 0) {
                Thread.sleep(ms);
            }
            return a ^ b;
        }
        long r = descend(left - 1, a * 31 + left, b ^ a, ms);
        return r + left * a; // not a tail call: the frame stays until the bottom returns
    }

    private static int param(HttpExchange ex, String name, int dflt, int max) {
        String q = ex.getRequestURI().getRawQuery();
        if (q != null) {
            for (String kv : q.split("&")) {
                if (kv.startsWith(name + "=")) {
                    return Config.number(name, kv.substring(name.length() + 1), 0, max);
                }
            }
        }
        return dflt;
    }

    private void stats(HttpExchange ex) throws IOException {
        if (!Exchanges.onlyGet(ex)) {
            return;
        }
        Exchanges.json(ex, 200, "{\"sleeping\":" + sleeping.get() + ",\"peakSleeping\":" + peakSleeping.get()
                + ",\"requests\":" + requests.get()
                + ",\"platformThreads\":" + ManagementFactory.getThreadMXBean().getThreadCount() + "}");
    }

    public static void main(String[] args) throws IOException {
        Config c;
        try {
            c = Config.parse(args);
            VirtualThreads.check();
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            System.err.println("vthreads: " + e.getMessage());
            System.exit(2);
            return;
        }
        VThreads app = start(c);
        Runtime.getRuntime().addShutdownHook(new Thread(app::close));
        System.out.printf("READY in %d ms on port %d (a virtual thread per request on Java %s; depth %d, sleep %d ms)%n",
                ManagementFactory.getRuntimeMXBean().getUptime(), app.port(), Runtime.version(), c.depth(), c.sleepMs());
    }
}
