// Starve (internal/sandbox stall_real_test.go) holds MIB MiB in its heap,
// then keeps working: formatting strings runs JDK code, so the JVM keeps
// needing its own code pages (libjvm.so, the CDS archive). Under a limit a
// little above its anonymous memory those pages are evicted and faulted
// back for ever, and it prints nothing after "held".
public class Starve {
    static byte[][] hold;

    public static void main(String[] args) {
        int mib = Integer.parseInt(args[0]);
        hold = new byte[mib * 16][];
        for (int i = 0; i < hold.length; i++) {
            hold[i] = new byte[64 << 10];
            java.util.Arrays.fill(hold[i], (byte) i);
        }
        System.out.println("held " + mib + " MiB");
        long n = 0, t = System.currentTimeMillis();
        while (true) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 1000; i++) {
                sb.append(String.format("%d-%s;", i, Integer.toHexString(i)));
            }
            n += sb.length();
            long now = System.currentTimeMillis();
            if (now - t >= 1000) {
                System.out.println("alive " + n);
                t = now;
            }
        }
    }
}
