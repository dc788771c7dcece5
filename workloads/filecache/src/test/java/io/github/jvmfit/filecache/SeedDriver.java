package io.github.jvmfit.filecache;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Seed 001's driver, closed model, JDK classes only so it also runs as a
 * single-file program:
 *
 *   java workloads/filecache/src/test/java/io/github/jvmfit/filecache/SeedDriver.java \
 *        http://127.0.0.1:8080 load 200            # phase one: 1 worker uploads 200 files
 *   java .../SeedDriver.java http://127.0.0.1:8080 mix 200 200 2000   # phase two: 200 workers x 2000
 *
 * Phase two: each worker starts at offset w*files/workers, sends 9 downloads then
 * 1 upload, moves to the next file at every request and wraps after the last.
 * jvmfit's own scenario (scenario-seed.yaml) is the same driver; this one exists
 * to measure the service without jvmfit and to test the driver's semantics.
 */
public final class SeedDriver {
    static final int SIZE = 2000;

    /** Status code → count, and the wall time of the phase. */
    public record Outcome(Map<Integer, Long> statuses, long requests, Duration took) {
        long ok() {
            return statuses.getOrDefault(200, 0L);
        }

        @Override
        public String toString() {
            return requests + " requests in " + took.toMillis() + " ms (" + (requests * 1000 / Math.max(1, took.toMillis()))
                    + "/s), statuses " + statuses;
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;

    public SeedDriver(String base) {
        this.base = base;
    }

    /** Deterministic printable content of SIZE bytes, different per file and version. */
    static byte[] content(int file, long salt) {
        StringBuilder b = new StringBuilder(SIZE + 64);
        long x = file * 0x9E3779B97F4A7C15L + salt;
        while (b.length() < SIZE) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            b.append((char) ('a' + Math.floorMod(x, 26)));
            if (b.length() % 64 == 63) b.append('\n');
        }
        return b.substring(0, SIZE).getBytes(StandardCharsets.US_ASCII);
    }

    private int send(String pathAndQuery, byte[] multipartContent) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(60));
        if (multipartContent == null) {
            r.PUT(HttpRequest.BodyPublishers.noBody());
        } else {
            String boundary = "seed001";
            ByteArrayOutputStream out = new ByteArrayOutputStream(multipartContent.length + 200);
            out.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.txt\"\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(multipartContent);
            out.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
            r.header("Content-Type", "multipart/form-data; boundary=" + boundary)
                    .PUT(HttpRequest.BodyPublishers.ofByteArray(out.toByteArray()));
        }
        return http.send(r.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** Phase one: one worker uploads files f0..f(files-1). */
    public Outcome load(int files) throws Exception {
        Map<Integer, Long> statuses = new TreeMap<>();
        long t0 = System.nanoTime();
        for (int f = 0; f < files; f++) {
            statuses.merge(send("/upload?name=f" + f, content(f, 0)), 1L, Long::sum);
        }
        return new Outcome(statuses, files, Duration.ofNanos(System.nanoTime() - t0));
    }

    /** Phase two: workers x requests, 9 downloads then 1 upload, spread offsets, wrap-around. */
    public Outcome mix(int files, int workers, int requests) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        List<Future<Map<Integer, Long>>> done = new ArrayList<>();
        long t0 = System.nanoTime();
        try {
            for (int w = 0; w < workers; w++) {
                int offset = (int) ((long) w * files / workers);
                done.add(pool.submit(() -> {
                    Map<Integer, Long> mine = new TreeMap<>();
                    for (int i = 0; i < requests; i++) {
                        int file = (offset + i) % files;
                        int status = i % 10 < 9
                                ? send("/download?name=f" + file, null)
                                : send("/upload?name=f" + file, content(file, i));
                        mine.merge(status, 1L, Long::sum);
                    }
                    return mine;
                }));
            }
            Map<Integer, Long> statuses = new TreeMap<>();
            for (Future<Map<Integer, Long>> f : done) f.get().forEach((k, v) -> statuses.merge(k, v, Long::sum));
            return new Outcome(statuses, (long) workers * requests, Duration.ofNanos(System.nanoTime() - t0));
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || !(args[1].equals("load") || args[1].equals("mix")) || (args[1].equals("mix") && args.length < 5)) {
            System.err.println("usage: SeedDriver BASE_URL load FILES | SeedDriver BASE_URL mix FILES WORKERS REQUESTS_PER_WORKER");
            System.exit(2);
        }
        SeedDriver d = new SeedDriver(args[0]);
        int files = Integer.parseInt(args[2]);
        Outcome o = args[1].equals("load") ? d.load(files) : d.mix(files, Integer.parseInt(args[3]), Integer.parseInt(args[4]));
        System.out.println(args[1] + ": " + o);
        System.exit(o.ok() == o.requests() ? 0 : 1);
    }
}
