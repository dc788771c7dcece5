package io.github.jvmfit.directbuf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The endpoints, on a small store (16 blobs of 64 KiB) so the class starts fast. */
class DirectBufHttpTest {
    static DirectBuf app;

    @BeforeAll
    static void start() throws Exception {
        app = DirectBuf.start(Config.parse(new String[] {"--port=0", "--blobs-mib=1", "--blob-kib=64"}));
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void healthIsUp() throws Exception {
        HttpResponse<byte[]> r = Http.get(app.port(), "/health");
        assertEquals(200, r.statusCode());
        assertEquals("{\"status\":\"UP\"}", Http.text(r));
    }

    @Test
    void aBlobIsServedAsLoaded() throws Exception {
        HttpResponse<byte[]> r = Http.get(app.port(), "/blobs/5");
        assertEquals(200, r.statusCode());
        assertEquals("application/octet-stream", r.headers().firstValue("Content-Type").orElse(""));
        byte[] want = new byte[64 << 10];
        for (int i = 0; i < want.length; i++) {
            want[i] = (byte) (i * 7 + 5);
        }
        assertArrayEquals(want, r.body());
        assertEquals(16, Http.number(Http.text(Http.get(app.port(), "/stats")), "blobs"));
    }

    @Test
    void aPutReplacesTheBlobWhateverItsSize() throws Exception {
        Random rnd = new Random(3);
        for (int size : new int[] {1, 100_000, BlobHandler.MAX_BODY}) {
            byte[] body = new byte[size];
            rnd.nextBytes(body);
            HttpResponse<byte[]> put = Http.send(app.port(), "PUT", "/blobs/9", body);
            assertEquals(200, put.statusCode(), Http.text(put));
            assertEquals(size, Http.number(Http.text(put), "bytes"));
            assertArrayEquals(body, Http.get(app.port(), "/blobs/9").body());
        }
    }

    @Test
    void badRequestsGetClearAnswers() throws Exception {
        assertEquals(404, Http.get(app.port(), "/blobs/16").statusCode());
        assertTrue(Http.text(Http.get(app.port(), "/blobs/16")).contains("there are 16"));
        assertEquals(400, Http.get(app.port(), "/blobs/x").statusCode());
        assertEquals(400, Http.get(app.port(), "/blobs/-").statusCode());
        assertEquals(404, Http.get(app.port(), "/blobs/-1").statusCode());
        assertEquals(404, Http.get(app.port(), "/nothing").statusCode());
        assertEquals(400, Http.send(app.port(), "PUT", "/blobs/1", new byte[0]).statusCode());
        assertEquals(413, Http.send(app.port(), "PUT", "/blobs/1", new byte[BlobHandler.MAX_BODY + 1]).statusCode());
        HttpResponse<byte[]> del = Http.send(app.port(), "DELETE", "/blobs/1", null);
        assertEquals(405, del.statusCode());
        assertEquals("GET, PUT", del.headers().firstValue("Allow").orElse(""));
        assertEquals(405, Http.send(app.port(), "POST", "/health", null).statusCode());
        // The rejected PUTs left blob 1 as it was loaded.
        assertEquals((byte) (3 * 7 + 1), Http.get(app.port(), "/blobs/1").body()[3]);
    }

    @Test
    void badArgumentsAreRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Config.parse(new String[] {"--blobs=3"}));
        assertTrue(e.getMessage().contains("unknown option --blobs"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Config.parse(new String[] {"--blobs-mib=1", "--blob-kib=1024", "--blobs-mib=0"}));
        assertTrue(e.getMessage().contains("1 to 16384"), e.getMessage());
        assertEquals(1, Config.parse(new String[] {"--blobs-mib=1", "--blob-kib=1024"}).blobCount());
    }
}
