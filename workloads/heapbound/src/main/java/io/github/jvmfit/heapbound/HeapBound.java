package io.github.jvmfit.heapbound;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Issue 21's heap-bound service: the JDK's own HTTP server, a live set held
 * for the process's life (24 MiB by default) and a fixed amount of garbage per
 * request (256 KiB), so what it needs is heap and little else.
 *
 * <pre>
 * GET /records?from=N  a page of records from N: {"from","records","bytes","crc32"}
 * GET /health          {"status":"UP"} once the live set is loaded
 * GET /stats           live set size, requests served, bytes they allocated
 * </pre>
 */
public final class HeapBound implements AutoCloseable {
    private final LiveSet live;
    private final Config config;
    private final HttpServer server;
    private final ExecutorService workers;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong allocated = new AtomicLong();

    private HeapBound(Config config) throws IOException {
        // Otherwise the server writes headers and body as two segments with
        // Nagle's algorithm on, and the client's delayed ACK adds ~40 ms to
        // every answer. Read once, when the first server is created.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        this.config = config;
        this.live = new LiveSet(config.liveBytes(), 42);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), config.port()), 256);
        this.workers = Executors.newFixedThreadPool(config.workers());
        server.setExecutor(workers);
        server.createContext("/records", this::records);
        server.createContext("/health", ex -> {
            if (Exchanges.onlyGet(ex)) {
                Exchanges.json(ex, 200, "{\"status\":\"UP\"}");
            }
        });
        server.createContext("/stats", this::stats);
        server.createContext("/", ex -> Exchanges.json(ex, 404, "{\"error\":\"no such path " + ex.getRequestURI().getPath() + "\"}"));
        server.start();
    }

    /** Loads the live set, then listens on 127.0.0.1 at the configured port (0 = any free one). */
    public static HeapBound start(Config config) throws IOException {
        return new HeapBound(config);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
    }

    private void records(HttpExchange ex) throws IOException {
        if (!Exchanges.onlyGet(ex) || !exactPath(ex, "/records")) {
            return;
        }
        long before = AllocationMeter.current();
        String from = query(ex.getRequestURI(), "from");
        int n;
        try {
            n = from == null ? 0 : Integer.parseInt(from);
            if (n < 0) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            Exchanges.json(ex, 400, "{\"error\":\"from must be a non-negative integer, got " + quoteless(from) + "\"}");
            return;
        }
        LiveSet.Page p = live.page(n, config.garbageBytes());
        Exchanges.json(ex, 200, "{\"from\":" + p.from() + ",\"records\":" + p.records() + ",\"bytes\":" + p.bytes()
                + ",\"crc32\":" + p.crc32() + "}");
        requests.incrementAndGet();
        allocated.addAndGet(AllocationMeter.current() - before);
    }

    private void stats(HttpExchange ex) throws IOException {
        if (!Exchanges.onlyGet(ex)) {
            return;
        }
        Exchanges.json(ex, 200, "{\"records\":" + live.size() + ",\"liveBytes\":" + live.heapBytes()
                + ",\"garbageBytesPerRequest\":" + config.garbageBytes() + ",\"requests\":" + requests.get()
                + ",\"allocatedBytes\":" + allocated.get() + "}");
    }

    private static boolean exactPath(HttpExchange ex, String path) throws IOException {
        if (ex.getRequestURI().getPath().equals(path)) {
            return true;
        }
        Exchanges.json(ex, 404, "{\"error\":\"no such path " + quoteless(ex.getRequestURI().getPath()) + "\"}");
        return false;
    }

    static String query(URI uri, String name) {
        String q = uri.getRawQuery();
        if (q == null) {
            return null;
        }
        for (String kv : q.split("&")) {
            if (kv.startsWith(name + "=")) {
                return kv.substring(name.length() + 1);
            }
        }
        return null;
    }

    /** A value echoed inside a JSON string, with nothing that could end it. */
    static String quoteless(String s) {
        return String.valueOf(s).replaceAll("[^A-Za-z0-9_./+-]", "?");
    }

    public static void main(String[] args) throws IOException {
        Config c;
        try {
            c = Config.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("heapbound: " + e.getMessage());
            System.exit(2);
            return;
        }
        HeapBound app = start(c);
        Runtime.getRuntime().addShutdownHook(new Thread(app::close));
        System.out.printf("READY in %d ms on port %d (live set %d records, %d bytes; %d bytes of garbage per request)%n",
                ManagementFactory.getRuntimeMXBean().getUptime(), app.port(), app.live.size(), app.live.heapBytes(), c.garbageBytes());
    }
}
