// A tiny HTTP service for the trial runner's tests. It needs nothing but the
// JDK, starts in well under a second, and can misbehave on purpose:
//
//   java Server serve PORT        GET /health 200, GET /work 200, GET /limits
//   java Server exit CODE         print a few lines, exit with CODE at once
//   java Server never PORT        listen, but /health always answers 503
//   java Server oom PORT          ready, then allocate until the cgroup kills it
//   java Server slowstart PORT MS wait MS milliseconds before listening
//   java Server heapoom PORT      ready, then fill the heap until OutOfMemoryError
//   java Server metaoom PORT      ready, then define classes until Metaspace is full
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;

public class Server {
    static final List<byte[]> hoard = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "serve";
        System.out.println("fixture: " + limits());
        System.out.println("fixture tmpdir: " + System.getProperty("java.io.tmpdir"));
        System.out.println("fixture env MALLOC_ARENA_MAX=" + System.getenv("MALLOC_ARENA_MAX"));
        switch (mode) {
            case "exit":
                for (int i = 1; i <= 40; i++) System.out.println("fixture line " + i);
                System.err.println("fixture: exiting on purpose");
                System.exit(Integer.parseInt(args[1]));
                return;
            case "slowstart":
                Thread.sleep(Long.parseLong(args[2]));
                serve(Integer.parseInt(args[1]), 200);
                return;
            case "never":
                serve(Integer.parseInt(args[1]), 503);
                return;
            case "oom":
                serve(Integer.parseInt(args[1]), 200);
                Thread.sleep(300);
                // Touch native memory (direct buffers are not heap-bounded by
                // -Xmx) so the cgroup, not the JVM, is what stops us.
                while (true) {
                    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocateDirect(4 << 20);
                    for (int i = 0; i < b.capacity(); i += 4096) b.put(i, (byte) 1);
                    synchronized (hoard) { hoard.add(new byte[0]); }
                    keep.add(b);
                    Thread.sleep(5);
                }
            case "heapoom":
                serve(Integer.parseInt(args[1]), 200);
                Thread.sleep(300);
                while (true) {
                    synchronized (hoard) { hoard.add(new byte[1 << 20]); }
                }
            case "metaoom":
                serve(Integer.parseInt(args[1]), 200);
                Thread.sleep(300);
                // Each class loader gets a proxy class of its own: metaspace
                // grows by a class and a loader per turn.
                List<Object> classes = new ArrayList<>();
                while (true) {
                    ClassLoader cl = new java.net.URLClassLoader(new java.net.URL[0], Server.class.getClassLoader());
                    classes.add(java.lang.reflect.Proxy.newProxyInstance(cl, new Class<?>[] {Runnable.class}, (o, m, a) -> null));
                }
            default:
                serve(Integer.parseInt(args[1]), 200);
        }
    }

    static final List<java.nio.ByteBuffer> keep = new ArrayList<>();

    static String limits() {
        long total = -1;
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            total = ((com.sun.management.OperatingSystemMXBean) os).getTotalPhysicalMemorySize();
        }
        return "{\"cpus\":" + Runtime.getRuntime().availableProcessors()
                + ",\"max_heap\":" + Runtime.getRuntime().maxMemory()
                + ",\"memory\":" + total + "}";
    }

    static void serve(int port, int health) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 128);
        s.setExecutor(Executors.newFixedThreadPool(4));
        s.createContext("/health", ex -> reply(ex, health, "health"));
        s.createContext("/work", ex -> reply(ex, 200, "ok " + System.nanoTime()));
        s.createContext("/limits", ex -> reply(ex, 200, limits()));
        s.start();
        System.out.println("fixture: listening on " + port);
    }

    static void reply(HttpExchange ex, int code, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getRequestBody().readAllBytes();
        ex.sendResponseHeaders(code, b.length);
        try (OutputStream o = ex.getResponseBody()) { o.write(b); }
    }
}
