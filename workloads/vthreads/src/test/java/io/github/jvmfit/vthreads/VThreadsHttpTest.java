package io.github.jvmfit.vthreads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The endpoints, with no sleep by default so the class is fast. Runs on a JDK 21+ (the pom's surefire jvm). */
class VThreadsHttpTest {
    static VThreads app;

    @BeforeAll
    static void start() throws Exception {
        assertTrue(Runtime.version().feature() >= 21, "these tests need a JDK 21+; surefire forked " + Runtime.version());
        app = VThreads.start(Config.parse(new String[] {"--port=0", "--sleep-ms=0", "--depth=20"}));
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
    void aRequestSleepsOnAVirtualThread() throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> r = Http.get(app.port(), "/sleep?ms=200&depth=500");
        assertTrue(System.nanoTime() - t0 >= 200_000_000L, "answered before its sleep");
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"virtual\":true"), r.body());
        assertEquals(200, Http.number(r.body(), "sleptMs"));
        assertEquals(500, Http.number(r.body(), "depth"));
        HttpResponse<String> dflt = Http.get(app.port(), "/sleep");
        assertEquals(0, Http.number(dflt.body(), "sleptMs"));
        assertEquals(20, Http.number(dflt.body(), "depth"));
    }

    @Test
    void badRequestsGetClearAnswers() throws Exception {
        for (String q : new String[] {"ms=-1", "ms=60001", "depth=3001", "depth=x"}) {
            HttpResponse<String> r = Http.get(app.port(), "/sleep?" + q);
            assertEquals(400, r.statusCode(), q);
            assertTrue(r.body().contains("expected a whole number"), r.body());
        }
        assertEquals(405, Http.send(app.port(), "PUT", "/sleep").statusCode());
        assertEquals(404, Http.get(app.port(), "/sleepy").statusCode());
    }

    @Test
    void badArgumentsAreRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Config.parse(new String[] {"--threads=3"}));
        assertTrue(e.getMessage().contains("unknown option --threads"), e.getMessage());
    }
}
