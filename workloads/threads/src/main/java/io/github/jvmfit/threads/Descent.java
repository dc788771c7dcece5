package io.github.jvmfit.threads;

/**
 * A request's work: recurse {@code depth} frames, then block at the bottom
 * (standing in for a blocking call: a database, a remote service) with the
 * whole stack in use. Every frame carries a few longs so the stack pages
 * touched are real, and the result depends on every frame so none is elided.
 */
final class Descent {
    private Descent() {
    }

    /** Returns a checksum of every frame's values. */
    static long run(int depth, int sleepMs) throws InterruptedException {
        return descend(depth, depth, 1, 2, 3, sleepMs);
    }

    private static long descend(int left, long a, long b, long c, long d, int sleepMs) throws InterruptedException {
        if (left == 0) {
            if (sleepMs > 0) {
                Thread.sleep(sleepMs);
            }
            return a ^ b ^ c ^ d;
        }
        long r = descend(left - 1, a * 31 + left, b ^ a, c + b, d - c, sleepMs);
        return r + left * a; // not a tail call: the frame stays until the bottom returns
    }
}
