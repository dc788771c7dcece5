package io.github.jvmfit.heapbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The endpoints, on a small live set (1 MiB) so the class starts fast. */
class HeapBoundHttpTest {
    static HeapBound app;

    @BeforeAll
    static void start() throws Exception {
        app = HeapBound.start(Config.parse(new String[] {"--port=0", "--live-mib=1", "--garbage-kib=16"}));
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
        assertEquals("application/json", r.headers().firstValue("Content-Type").orElse(""));
    }

    @Test
    void aPageIsJsonAndDependsOnlyOnWhereItStarts() throws Exception {
        HttpResponse<String> a = Http.get(app.port(), "/records?from=7");
        assertEquals(200, a.statusCode(), a.body());
        assertEquals(7, Http.number(a.body(), "from"));
        assertEquals(16 << 10, Http.number(a.body(), "bytes"));
        // 16 KiB of 240-byte records: 69 of them, the last one cut short.
        assertEquals(69, Http.number(a.body(), "records"));
        assertEquals(a.body(), Http.get(app.port(), "/records?from=7").body());
        assertNotEquals(Http.number(a.body(), "crc32"), Http.number(Http.get(app.port(), "/records?from=8").body(), "crc32"));
    }

    @Test
    void pagesWrapAroundTheEnd() throws Exception {
        long n = Http.number(Http.get(app.port(), "/stats").body(), "records");
        assertEquals(4096, n); // 1 MiB of 256-byte records
        String wrapped = Http.get(app.port(), "/records?from=" + (n + 3)).body();
        assertEquals(3, Http.number(wrapped, "from"));
        assertEquals(Http.number(Http.get(app.port(), "/records?from=3").body(), "crc32"), Http.number(wrapped, "crc32"));
        assertEquals(200, Http.get(app.port(), "/records?from=" + (n - 1)).statusCode());
    }

    @Test
    void badRequestsGetClearAnswers() throws Exception {
        for (String bad : new String[] {"-1", "x", "99999999999", ""}) {
            HttpResponse<String> r = Http.get(app.port(), "/records?from=" + bad);
            assertEquals(400, r.statusCode(), bad);
            assertTrue(r.body().contains("from must be a non-negative integer"), r.body());
        }
        assertEquals(405, Http.send(app.port(), "POST", "/records").statusCode());
        assertEquals("GET", Http.send(app.port(), "DELETE", "/health").headers().firstValue("Allow").orElse(""));
        assertEquals(404, Http.get(app.port(), "/nothing").statusCode());
        assertEquals(404, Http.get(app.port(), "/records/1").statusCode());
    }

    @Test
    void badArgumentsAreRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Config.parse(new String[] {"--live-mb=3"}));
        assertTrue(e.getMessage().contains("unknown option --live-mb"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Config.parse(new String[] {"--port=70000"}));
        assertTrue(e.getMessage().contains("0 to 65535"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Config.parse(new String[] {"port=1"}));
    }
}
