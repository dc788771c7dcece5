package io.github.jvmfit.directbuf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

/**
 * The stress is real: the default 48 MiB store is direct memory the JDK
 * counts (so -XX:MaxDirectMemorySize caps it), not heap, and replacing blobs
 * reuses the pool instead of growing it.
 */
class DirectBufStressTest {
    private static final long MIB = 1 << 20;

    @Test
    void theWorkingSetIsDirectMemoryNotHeap() throws Exception {
        long heapBefore = heapAfterGc();
        long directBefore = Stats.jdkDirectBytes();
        try (DirectBuf app = DirectBuf.start(Config.parse(new String[] {"--port=0"}))) {
            String s = Http.text(Http.get(app.port(), "/stats"));
            assertEquals(768, Http.number(s, "blobs"));
            assertEquals(48 * MIB, Http.number(s, "blobBytes"));
            long direct = Stats.jdkDirectBytes() - directBefore;
            assertTrue(direct >= 48 * MIB, "JDK direct memory held: " + direct);
            assertTrue(direct <= 64 * MIB, "JDK direct memory held: " + direct);
            assertTrue(Http.number(s, "pooledDirectBytes") >= 48 * MIB, s);
            long heap = heapAfterGc() - heapBefore;
            assertTrue(heap < 8 * MIB, "heap held by the service: " + heap);

            // Replacing blobs takes new buffers from the event loops' own
            // arenas, which grow by a few chunks once; then the released
            // blobs are reused. A leak would grow direct memory by every
            // round's 19 MiB (300 x 64 KiB).
            long[] afterRound = new long[3];
            byte[] body = new byte[64 << 10];
            for (int round = 0; round < afterRound.length; round++) {
                for (int i = 0; i < 300; i++) {
                    assertEquals(200, Http.send(app.port(), "PUT", "/blobs/" + ((round * 300 + i) * 7 % 768), body).statusCode());
                    assertEquals(200, Http.get(app.port(), "/blobs/" + (i * 11 % 768)).statusCode());
                }
                afterRound[round] = Stats.jdkDirectBytes() - directBefore;
            }
            assertTrue(afterRound[2] - afterRound[0] <= 8 * MIB,
                    "JDK direct memory after each round of replacements: " + java.util.Arrays.toString(afterRound));
            assertEquals(48 * MIB, Http.number(Http.text(Http.get(app.port(), "/stats")), "blobBytes"));
        }
        long left = Stats.jdkDirectBytes() - directBefore;
        assertTrue(left < 48 * MIB, "direct memory still held after close: " + left);
    }

    private static long heapAfterGc() throws InterruptedException {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
            least = Math.min(least, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return least;
    }
}
