package io.github.jvmfit.directbuf;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Blobs held in pooled direct buffers for the process's life: the service's
 * working set lives outside the heap. A GET hands out a retained view of a
 * blob (no copy); a PUT swaps in a new buffer and releases the old one once
 * the last answer still sending it is done.
 */
final class BlobStore implements AutoCloseable {
    /** Byte {@code offset} of blob {@code blob} as loaded at start: deterministic, different per blob. */
    static byte initial(int blob, int offset) {
        return (byte) (offset * 7 + blob);
    }

    private final ByteBuf[] blobs;

    BlobStore(ByteBufAllocator alloc, int count, int size) {
        blobs = new ByteBuf[count];
        byte[] row = new byte[size];
        for (int b = 0; b < count; b++) {
            for (int i = 0; i < size; i++) {
                row[i] = initial(b, i);
            }
            blobs[b] = alloc.directBuffer(size, size).writeBytes(row);
        }
    }

    int count() {
        return blobs.length;
    }

    /** A retained view of the blob: the caller releases it (writing it to a channel does). */
    synchronized ByteBuf get(int blob) {
        return blobs[blob].retainedDuplicate();
    }

    /** Takes ownership of {@code content}. */
    synchronized void put(int blob, ByteBuf content) {
        ByteBuf old = blobs[blob];
        blobs[blob] = content;
        old.release();
    }

    /** Bytes the blobs hold. */
    synchronized long bytes() {
        long n = 0;
        for (ByteBuf b : blobs) {
            n += b.readableBytes();
        }
        return n;
    }

    @Override
    public synchronized void close() {
        for (ByteBuf b : blobs) {
            if (b.refCnt() > 0) {
                b.release();
            }
        }
    }
}
