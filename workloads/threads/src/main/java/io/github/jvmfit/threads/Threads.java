package io.github.jvmfit.threads;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Issue 21's thread-heavy service: the JDK's HTTP server in front of a fixed
 * pool of platform threads (320 by default, all started before it listens),
 * each request a blocking call made at the bottom of a deep stack. Thread
 * stacks and per-thread native memory, not the heap, are what it needs.
 *
 * <pre>
 * GET /work?depth=D&amp;sleep=MS  recurse D frames, block MS ms: {"thread","depth","sleptMs","checksum"}
 * GET /health                  {"status":"UP"} once every worker is started
 * GET /stats                   live threads, pool size, busy workers and their peak, requests served
 * </pre>
 */
public final class Threads implements AutoCloseable {
    static final String WORKER_PREFIX = "threads-worker-";

    private final Config config;
    private final HttpServer server;
    private final ThreadPoolExecutor pool;
    private final AtomicInteger busy = new AtomicInteger();
    private final AtomicInteger peakBusy = new AtomicInteger();
    private final AtomicLong requests = new AtomicLong();

    private Threads(Config config) throws IOException {
        // Otherwise the server writes headers and body as two segments with
        // Nagle's algorithm on, and the client's delayed ACK adds ~40 ms.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        this.config = config;
        AtomicInteger n = new AtomicInteger();
        ThreadFactory named = r -> new Thread(r, WORKER_PREFIX + n.incrementAndGet());
        pool = new ThreadPoolExecutor(config.threads(), config.threads(), 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), named);
        pool.prestartAllCoreThreads();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), config.port()), 1024);
        server.setExecutor(pool);
        server.createContext("/work", this::work);
        server.createContext("/health", ex -> {
            if (Exchanges.onlyGet(ex)) {
                Exchanges.json(ex, 200, "{\"status\":\"UP\"}");
            }
        });
        server.createContext("/stats", this::stats);
        server.createContext("/", ex -> Exchanges.json(ex, 404, "{\"error\":\"no such path\"}"));
        server.start();
    }

    /** Starts every worker, then listens on 127.0.0.1 at the configured port (0 = any free one). */
    public static Threads start(Config config) throws IOException {
        return new Threads(config);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }

    private void work(HttpExchange ex) throws IOException {
        if (!Exchanges.onlyGet(ex)) {
            return;
        }
        if (!ex.getRequestURI().getPath().equals("/work")) {
            Exchanges.json(ex, 404, "{\"error\":\"no such path\"}");
            return;
        }
        int depth;
        int sleep;
        try {
            depth = param(ex, "depth", config.depth(), Config.MAX_DEPTH);
            sleep = param(ex, "sleep", config.sleepMs(), Config.MAX_SLEEP_MS);
        } catch (IllegalArgumentException e) {
            Exchanges.json(ex, 400, "{\"error\":\"" + e.getMessage() + "\"}");
            return;
        }
        peakBusy.accumulateAndGet(busy.incrementAndGet(), Math::max);
        long sum;
        try {
            sum = Descent.run(depth, sleep);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Exchanges.json(ex, 503, "{\"error\":\"shutting down\"}");
            return;
        } finally {
            busy.decrementAndGet();
        }
        requests.incrementAndGet();
        Exchanges.json(ex, 200, "{\"thread\":\"" + Thread.currentThread().getName() + "\",\"depth\":" + depth
                + ",\"sleptMs\":" + sleep + ",\"checksum\":" + sum + "}");
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
        Exchanges.json(ex, 200, "{\"liveThreads\":" + ManagementFactory.getThreadMXBean().getThreadCount()
                + ",\"workers\":" + pool.getPoolSize() + ",\"busy\":" + busy.get() + ",\"peakBusy\":" + peakBusy.get()
                + ",\"requests\":" + requests.get() + "}");
    }

    public static void main(String[] args) throws IOException {
        Config c;
        try {
            c = Config.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("threads: " + e.getMessage());
            System.exit(2);
            return;
        }
        Threads app = start(c);
        Runtime.getRuntime().addShutdownHook(new Thread(app::close));
        System.out.printf("READY in %d ms on port %d (%d worker threads; %d live threads; depth %d, sleep %d ms)%n",
                ManagementFactory.getRuntimeMXBean().getUptime(), app.port(), app.pool.getPoolSize(),
                ManagementFactory.getThreadMXBean().getThreadCount(), c.depth(), c.sleepMs());
    }
}
