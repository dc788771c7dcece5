import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

// Reserves direct buffers of 4 MiB, the chunk Netty's pool takes by default,
// until the JDK refuses one, and prints how many it held: the test compares
// the plan's direct memory cap with the JDK's own (Runtime.maxMemory()).
public class DirectChunks {
    public static void main(String[] args) {
        List<ByteBuffer> held = new ArrayList<>();
        try {
            while (held.size() < 256) {
                held.add(ByteBuffer.allocateDirect(4 << 20));
            }
        } catch (OutOfMemoryError e) {
            System.out.println("refused: " + e.getMessage());
        }
        System.out.println("chunks " + held.size() + " maxMemory " + Runtime.getRuntime().maxMemory());
    }
}
