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
//   java Server gcbound PORT      before listening, hold most of the heap live and churn:
//                                 collected without end, never ready (with -XX:-UseGCOverheadLimit
//                                 under Parallel, never out of memory either)
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

    // gcBound holds 70% of the maximum heap live in small objects (which
    // every full collection marks and moves one by one), more than the old
    // generation holds beside the young one, then allocates into a ring of
    // recent arrays (kept, so that no compiler can take the allocation
    // away, and each young collection has survivors to promote into the
    // full old generation): the JVM collects most of its time, frees
    // little, and never ends (run with -XX:-UseGCOverheadLimit).
    static final List<Object> kept = new ArrayList<>(); // static: live whatever the compiler sees
    static final Object[] recent = new Object[4096];

    static void gcBound() {
        long max = Runtime.getRuntime().maxMemory();
        for (long held = 0; held < max * 7 / 10; held += 56) kept.add(new long[4]);
        System.out.println("fixture: holding " + kept.size() + " objects, " + (max >> 10) + " KiB max heap");
        for (long i = 0; ; i++) recent[(int) (i & 4095)] = new long[16];
    }

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
            case "gcbound":
                gcBound();
                return;
            case "heapoom":
                serve(Integer.parseInt(args[1]), 200);
                Thread.sleep(300);
                while (true) {
                    synchronized (hoard) { hoard.add(new byte[1 << 20]); }
                }
            case "metaoom":
                serve(Integer.parseInt(args[1]), 200);
                Thread.sleep(300);
                // Each turn defines Filler once more in a class loader of its
                // own, kept: metaspace grows by a class (its constant pool and
                // methods) and a loader per turn. defineClass of bytes read
                // once costs little CPU per byte of metaspace, so the fill
                // takes well under a second, not the many seconds generating
                // a proxy class per turn took on a loaded machine.
                byte[] filler;
                try (java.io.InputStream in = Server.class.getResourceAsStream("Server$Filler.class")) {
                    filler = in.readAllBytes();
                }
                List<Class<?>> classes = new ArrayList<>();
                while (true) {
                    classes.add(new Definer().define(filler));
                }
            default:
                serve(Integer.parseInt(args[1]), 200);
        }
    }

    static final List<java.nio.ByteBuffer> keep = new ArrayList<>();

    // A loader that defines Filler from its bytes, once.
    static final class Definer extends ClassLoader {
        Definer() { super(Server.class.getClassLoader()); }
        Class<?> define(byte[] b) { return defineClass("Server$Filler", b, 0, b.length); }
    }

    // Filler is never run: its methods and constants are metadata to define.
    static final class Filler {
        static String a(int i) { return "filler a " + i + " " + Integer.toHexString(i * 31); }
        static String b(long l) { return "filler b " + l + " " + Long.toOctalString(l ^ 0x5DEECE66DL); }
        static double c(double x) { return Math.sqrt(x) * Math.log1p(x) + Math.sin(x) - Math.cos(x); }
        static int d(int[] v) { int s = 0; for (int x : v) s += x * x - (x >>> 3); return s; }
        static String e(Object o) { return "filler e " + String.valueOf(o) + " " + System.identityHashCode(o); }
        static long f(long x) { return Long.rotateLeft(x, 7) ^ Long.reverse(x) ^ Long.highestOneBit(x); }
        static String g(String s) { return s.trim().toUpperCase() + " filler g " + s.length(); }
        static int h(List<String> l) { int n = 0; for (String s : l) n += s.hashCode() % 97; return n; }
    }

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
