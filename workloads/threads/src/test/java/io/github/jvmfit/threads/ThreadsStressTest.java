package io.github.jvmfit.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

/**
 * The stress is real: 320 platform workers are alive from the start, and
 * under load hundreds of them block at once, each at the bottom of a deep stack.
 */
class ThreadsStressTest {
    @Test
    void hundredsOfWorkersBlockAtOnceOnDeepStacks() throws Exception {
        try (Threads app = Threads.start(Config.parse(new String[] {"--port=0"}))) {
            assertEquals(320, aliveWorkers());
            assertTrue(Http.number(Http.get(app.port(), "/stats").body(), "liveThreads") >= 320);

            int n = 250;
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/work?sleep=1500"))
                        .timeout(Duration.ofSeconds(20)).build();
                answers.add(client.sendAsync(r, HttpResponse.BodyHandlers.ofString()));
            }
            // While they sleep, every one of them holds its own worker.
            long busy = 0;
            for (long end = System.nanoTime() + 10_000_000_000L; busy < n && System.nanoTime() < end; Thread.sleep(50)) {
                busy = Http.number(Http.get(app.port(), "/stats").body(), "busy");
            }
            assertEquals(n, busy, "workers blocked at once");
            // Each of them sleeps at the bottom of its 1,000 frames (a stack
            // trace stops at MaxJavaStackTraceDepth, 1,024 by default; ten
            // are looked at: a deep trace costs a few ms each).
            List<Thread> sleeping = workers().stream().filter(t -> t.getState() == Thread.State.TIMED_WAITING).toList();
            assertEquals(n, sleeping.size(), "workers sleeping at once");
            for (Thread t : sleeping.subList(0, 10)) {
                assertTrue(t.getStackTrace().length >= 1000, t.getName() + " sleeps on " + t.getStackTrace().length + " frames");
            }
            Set<String> threads = new HashSet<>();
            for (CompletableFuture<HttpResponse<String>> f : answers) {
                HttpResponse<String> r = f.join();
                assertEquals(200, r.statusCode(), r.body());
                assertEquals(1000, Http.number(r.body(), "depth"), r.body());
                threads.add(r.body().replaceAll(".*\"thread\":\"([^\"]+)\".*", "$1"));
            }
            assertEquals(n, threads.size(), "distinct workers that answered");
            assertEquals(320, aliveWorkers());
        }
    }

    private static long aliveWorkers() {
        return workers().stream().filter(Thread::isAlive).count();
    }

    /** The service's workers, found without taking every thread's stack trace (seconds, with deep stacks). */
    private static List<Thread> workers() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] all = new Thread[root.activeCount() + 100];
        int n = root.enumerate(all, true);
        return Arrays.stream(all, 0, n).filter(t -> t.getName().startsWith(Threads.WORKER_PREFIX)).toList();
    }
}
