package io.github.jvmfit.heapbound;

import java.util.SplittableRandom;
import java.util.zip.CRC32;

/**
 * The service's data: fixed-size records held in the heap for the process's
 * whole life, like a read-mostly cache loaded at start. Many small arrays
 * rather than one large one, so the collector has real objects to trace.
 */
final class LiveSet {
    /** 240 payload bytes + a 16-byte array header: 256 bytes of heap per record. */
    static final int PAYLOAD = 240;
    static final int RECORD_HEAP_BYTES = PAYLOAD + 16;

    private final byte[][] records;

    /** Fills about {@code bytes} of heap with records whose contents come from {@code seed}. */
    LiveSet(long bytes, long seed) {
        int n = (int) Math.max(1, bytes / RECORD_HEAP_BYTES);
        records = new byte[n][];
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            byte[] r = new byte[PAYLOAD];
            rnd.nextBytes(r);
            records[i] = r;
        }
    }

    int size() {
        return records.length;
    }

    /** Heap the records take: what start-up adds to the live set. */
    long heapBytes() {
        return (long) records.length * RECORD_HEAP_BYTES;
    }

    /**
     * Copies records from {@code from} (wrapping at the end) into a new buffer
     * of {@code scratchBytes} and returns its checksum. The buffer is the
     * request's garbage: it is allocated per call and dropped on return, and
     * the checksum reads all of it so the JIT cannot elide it.
     */
    Page page(int from, int scratchBytes) {
        byte[] scratch = new byte[scratchBytes];
        int i = Math.floorMod(from, records.length);
        int count = 0;
        for (int off = 0; off < scratchBytes; off += PAYLOAD, count++) {
            System.arraycopy(records[i], 0, scratch, off, Math.min(PAYLOAD, scratchBytes - off));
            i = (i + 1) % records.length;
        }
        CRC32 crc = new CRC32();
        crc.update(scratch, 0, scratch.length);
        return new Page(Math.floorMod(from, records.length), count, scratch.length, crc.getValue());
    }

    record Page(int from, int records, int bytes, long crc32) {
    }
}
