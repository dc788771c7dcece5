package io.github.jvmfit.threads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The endpoints, on a small pool (8 workers, depth 50, no sleep) so the class is fast. */
class ThreadsHttpTest {
    static Threads app;

    @BeforeAll
    static void start() throws Exception {
        app = Threads.start(Config.parse(new String[] {"--port=0", "--threads=8", "--depth=50", "--sleep-ms=0"}));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void healthIsUp() throws Exception {
        HttpResponse<String> r = Http.get(app.port(), "/health");
        assertEquals(200, r.statusCode());
        assertEquals("{\"status\":\"UP\"}", r.body());
    }

    @Test
    void workRunsOnAWorkerAndAnswersWhatItDid() throws Exception {
        HttpResponse<String> r = Http.get(app.port(), "/work");
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"thread\":\"" + Threads.WORKER_PREFIX), r.body());
        assertEquals(50, Http.number(r.body(), "depth"));
        assertEquals(0, Http.number(r.body(), "sleptMs"));
        assertEquals(Http.number(r.body(), "checksum"), Http.number(Http.get(app.port(), "/work").body(), "checksum"));

        long t0 = System.nanoTime();
        HttpResponse<String> deep = Http.get(app.port(), "/work?depth=700&sleep=200");
        assertTrue(System.nanoTime() - t0 >= 200_000_000L, "answered before its sleep");
        assertEquals(200, deep.statusCode(), deep.body());
        assertEquals(700, Http.number(deep.body(), "depth"));
        assertEquals(200, Http.number(deep.body(), "sleptMs"));
    }

    @Test
    void badRequestsGetClearAnswers() throws Exception {
        for (String q : new String[] {"depth=-1", "depth=3001", "depth=x", "sleep=10001", "sleep="}) {
            HttpResponse<String> r = Http.get(app.port(), "/work?" + q);
            assertEquals(400, r.statusCode(), q);
            assertTrue(r.body().contains("expected a whole number"), r.body());
        }
        assertEquals(405, Http.send(app.port(), "POST", "/work").statusCode());
        assertEquals(404, Http.get(app.port(), "/work/1").statusCode());
        assertEquals(404, Http.get(app.port(), "/").statusCode());
    }

    @Test
    void badArgumentsAreRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Config.parse(new String[] {"--threads=0"}));
        assertTrue(e.getMessage().contains("1 to 4096"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Config.parse(new String[] {"--pool=3"}));
        assertTrue(e.getMessage().contains("unknown option --pool"), e.getMessage());
    }
}
