import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;

// A JVM that tests steer over stdin: each command is answered with "ok <command>".
//   alloc N     retain N MiB more
//   free        drop what is retained
//   churn N     allocate and drop N MiB (young garbage)
//   gc          System.gc()
//   threads N   start N more sleeping threads
//   fds N       open N more file handles on /proc/self/stat
// It exits when stdin closes.
public class Probe {
    static final List<byte[]> kept = new ArrayList<>();
    static final List<Object> handles = new ArrayList<>();
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("ready");
        System.out.flush();
        for (String line; (line = in.readLine()) != null; ) {
            String[] w = line.trim().split("\\s+");
            int n = w.length > 1 ? Integer.parseInt(w[1]) : 0;
            switch (w[0]) {
                case "alloc":
                    // 128 KiB pieces: small objects for every collector (ZGC puts
                    // larger ones on medium pages that a small heap cannot hold).
                    for (int i = 0; i < n * 8; i++) kept.add(new byte[128 << 10]);
                    break;
                case "free":
                    kept.clear();
                    break;
                case "churn":
                    for (int i = 0; i < n * 16; i++) sink = new byte[64 << 10];
                    break;
                case "gc":
                    System.gc();
                    break;
                case "threads":
                    for (int i = 0; i < n; i++) {
                        Thread t = new Thread(() -> {
                            try { Thread.sleep(Long.MAX_VALUE); } catch (InterruptedException e) { }
                        });
                        t.setDaemon(true);
                        t.start();
                    }
                    break;
                case "fds":
                    for (int i = 0; i < n; i++) handles.add(new java.io.FileInputStream("/proc/self/stat"));
                    break;
                default:
                    System.out.println("unknown " + line);
                    System.out.flush();
                    continue;
            }
            System.out.println("ok " + line.trim());
            System.out.flush();
        }
    }
}
