package io.github.jvmfit.heapbound;

import java.lang.management.ManagementFactory;

/**
 * Bytes the current thread has allocated in the heap, as HotSpot counts them
 * (its TLAB accounting), so /stats reports what requests really allocate,
 * not what the code is meant to.
 */
final class AllocationMeter {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AllocationMeter() {
    }

    static long current() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }
}
