package io.github.jvmfit.directbuf;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

import io.netty.buffer.PooledByteBufAllocator;

/**
 * What /stats reports: the store, what Netty's pool holds in direct and heap
 * arenas, and what the JDK counts as direct memory (the buffers Netty's pool
 * reserved through ByteBuffer.allocateDirect, so what -XX:MaxDirectMemorySize caps).
 */
final class Stats {
    private final BlobStore store;
    private final PooledByteBufAllocator alloc;

    Stats(BlobStore store, PooledByteBufAllocator alloc) {
        this.store = store;
        this.alloc = alloc;
    }

    static long jdkDirectBytes() {
        for (BufferPoolMXBean p : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (p.getName().equals("direct")) {
                return p.getMemoryUsed();
            }
        }
        return -1;
    }

    String json(long requests) {
        return "{\"blobs\":" + store.count() + ",\"blobBytes\":" + store.bytes()
                + ",\"pooledDirectBytes\":" + alloc.metric().usedDirectMemory()
                + ",\"pooledHeapBytes\":" + alloc.metric().usedHeapMemory()
                + ",\"jdkDirectBytes\":" + jdkDirectBytes()
                + ",\"requests\":" + requests + "}";
    }
}
