package io.github.jvmfit.vthreads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The stress is real: 500 requests sleep at once on a few platform
 * threads, and while they sleep their stacks are in the heap. On a JDK before
 * 21 the service refuses to start, saying why.
 */
class VThreadsStressTest {
    private static final int N = 500;

    @Test
    void hundredsSleepAtOnceWithTheirStacksInTheHeap() throws Exception {
        long shallow = heapWhileAsleep(0);
        long deep = heapWhileAsleep(300);
        System.out.printf("heap with %d requests asleep: depth 0 %d bytes, depth 300 %d bytes%n", N, shallow, deep);
        // 300 more frames of a few longs each, per request: at least 16 bytes a frame.
        assertTrue(deep - shallow >= (long) N * 300 * 16, "heap held by " + N + " x 300 parked frames: " + (deep - shallow));
    }

    /** Heap after a full GC while N requests sleep at {@code depth}; the server is closed (waking them) after. */
    private static long heapWhileAsleep(int depth) throws Exception {
        // A client with a few threads of its own, so the platform-thread count below means something.
        ExecutorService clientThreads = Executors.newFixedThreadPool(4);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(clientThreads).build();
        try (VThreads app = VThreads.start(Config.parse(new String[] {"--port=0"}))) {
            for (int i = 0; i < N; i++) {
                // Longer than the test: closing the server interrupts them.
                HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/sleep?ms=30000&depth=" + depth))
                        .timeout(Duration.ofSeconds(40)).build();
                client.sendAsync(r, HttpResponse.BodyHandlers.discarding());
            }
            long sleeping = 0;
            String stats = "";
            for (long end = System.nanoTime() + 15_000_000_000L; sleeping < N && System.nanoTime() < end; Thread.sleep(50)) {
                stats = Http.get(app.port(), "/stats").body();
                sleeping = Http.number(stats, "sleeping");
            }
            assertEquals(N, sleeping, "requests asleep at once: " + stats);
            // This test JVM's own threads (JUnit, the HTTP client) included: far fewer than the requests.
            assertTrue(Http.number(stats, "platformThreads") < 100, stats);
            long least = Long.MAX_VALUE;
            for (int i = 0; i < 3; i++) {
                System.gc();
                least = Math.min(least, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
            }
            return least;
        } finally {
            clientThreads.shutdownNow();
        }
    }

    @Test
    void onAJdkBefore21ItRefusesToStartAndSaysWhy() throws Exception {
        String java = System.getProperty("vthreads.oldJava");
        assertTrue(java != null && new File(java).canExecute(), "no JDK before 21 to run the service on (vthreads.oldJava=" + java + ")");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), VThreads.class.getName(), "--port=0")
                .redirectErrorStream(true).start();
        try {
            assertTrue(p.waitFor(20, TimeUnit.SECONDS), "the service on " + java + " did not stop");
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(2, p.exitValue(), out);
            assertTrue(out.startsWith("vthreads: virtual threads need JDK 21 or newer; this is Java "), out);
            assertTrue(out.contains("run it with a JDK 21+ java"), out);
        } finally {
            p.destroyForcibly();
        }
    }
}
