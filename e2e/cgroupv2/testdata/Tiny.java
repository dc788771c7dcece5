import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The cgroup v2 guest's service: the JDK's own HTTP server on loopback, so it
 * starts in seconds under QEMU's emulation. Before it listens it keeps
 * KEEP_MIB MiB of heap alive (24 in app.yaml). At 256Mi the JDK's default
 * heap (a quarter of the limit) holds it. At 40Mi the heap (half of a limit
 * that small) cannot, and the JVM throws OutOfMemoryError, or the kernel
 * kills it first: the trial is KO.
 *
 *   java Tiny PORT KEEP_MIB
 */
public class Tiny {
    static byte[][] kept;

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int keepMiB = Integer.parseInt(args[1]);
        kept = new byte[keepMiB][];
        for (int i = 0; i < keepMiB; i++) {
            kept[i] = new byte[1 << 20];
            for (int j = 0; j < kept[i].length; j += 4096) {
                kept[i][j] = 1; // touch every page: kept means resident
            }
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
        server.createContext("/", exchange -> {
            byte[] body = ("ok " + kept.length + "\n").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }
}
