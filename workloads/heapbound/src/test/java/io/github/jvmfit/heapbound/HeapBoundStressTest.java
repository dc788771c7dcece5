package io.github.jvmfit.heapbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

import org.junit.jupiter.api.Test;

/** The stress is real: the default live set stays in the heap, and every request makes its garbage. */
class HeapBoundStressTest {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    @Test
    void theLiveSetStaysInTheHeap() throws Exception {
        long before = heapAfterGc();
        try (HeapBound app = HeapBound.start(Config.parse(new String[] {"--port=0"}))) {
            for (int i = 0; i < 20; i++) {
                assertEquals(200, Http.get(app.port(), "/records?from=" + i * 1000).statusCode());
            }
            long held = heapAfterGc() - before;
            // 24 MiB of records plus the array that holds them (384 KiB); a
            // little slack for the server's own objects, but not a second copy.
            assertTrue(held >= 24L << 20, "live set after a full GC: " + held + " bytes");
            assertTrue(held <= 27L << 20, "live set after a full GC: " + held + " bytes");
            assertEquals(24L << 20, Http.number(Http.get(app.port(), "/stats").body(), "liveBytes"));
        }
    }

    @Test
    void everyRequestAllocatesItsGarbage() throws Exception {
        try (HeapBound app = HeapBound.start(Config.parse(new String[] {"--port=0", "--live-mib=1"}))) {
            String s0 = Http.get(app.port(), "/stats").body();
            int n = 50;
            for (int i = 0; i < n; i++) {
                assertEquals(200, Http.get(app.port(), "/records?from=" + i).statusCode());
            }
            String s1 = Http.get(app.port(), "/stats").body();
            assertEquals(n, Http.number(s1, "requests") - Http.number(s0, "requests"));
            long perRequest = (Http.number(s1, "allocatedBytes") - Http.number(s0, "allocatedBytes")) / n;
            // HotSpot's own count of what the handler allocated: the 256 KiB
            // page and a few KiB of answer, never the page elided by the JIT.
            assertTrue(perRequest >= 256 << 10, "allocated per request: " + perRequest);
            assertTrue(perRequest <= 320 << 10, "allocated per request: " + perRequest);
        }
    }

    private static long heapAfterGc() throws InterruptedException {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
            least = Math.min(least, MEMORY.getHeapMemoryUsage().getUsed());
        }
        return least;
    }
}
