package io.github.jvmfit.sidecar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The proxy between a real client and real upstreams on loopback. */
class SidecarTest {
    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private Upstream upstream(String name) throws Exception {
        Upstream u = new Upstream(name);
        open.add(u);
        return u;
    }

    private Sidecar proxy(String... args) throws Exception {
        String[] all = new String[args.length + 1];
        all[0] = "--port=0";
        System.arraycopy(args, 0, all, 1, args.length);
        Sidecar s = Sidecar.start(Config.parse(all));
        open.add(s);
        return s;
    }

    @Test
    void theLongestMatchingPrefixPicksTheUpstream() throws Exception {
        Upstream a = upstream("a"), b = upstream("b");
        Sidecar s = proxy("--route=/api=" + a.addr(), "--route=/api/v2=" + b.addr());
        HttpClient c = Http.client();
        HttpResponse<String> r = Http.get(c, s.port(), "/api/orders?id=3");
        assertEquals(200, r.statusCode());
        assertEquals("a /api/orders host=" + a.addr(), r.body());
        assertEquals("a", r.headers().firstValue("X-Upstream").orElse(""));
        assertEquals("b /api/v2/orders host=" + b.addr(), Http.get(c, s.port(), "/api/v2/orders").body());
        assertEquals("a /api host=" + a.addr(), Http.get(c, s.port(), "/api").body());
        // Whole segments only, and no catch-all route here.
        assertEquals(404, Http.get(c, s.port(), "/apix").statusCode());
        assertEquals(404, Http.get(c, s.port(), "/other").statusCode());
        assertEquals(2, a.hits.get());
        assertEquals(1, b.hits.get());
    }

    @Test
    void sequentialRequestsReuseOneUpstreamConnection() throws Exception {
        Upstream u = upstream("u");
        Sidecar s = proxy("--upstream=" + u.addr());
        HttpClient c = Http.client();
        for (int i = 0; i < 20; i++) {
            assertEquals(200, Http.get(c, s.port(), "/r/" + i).statusCode());
        }
        assertEquals(20, u.hits.get());
        assertEquals(1, u.clientPorts.size(), "every request should have come over one kept-alive connection: " + u.clientPorts);
        String stats = Http.get(c, s.port(), "/sidecar/stats").body();
        assertEquals(1, Http.number(stats, "upstream_connections_opened"), stats);
        assertEquals(19, Http.number(stats, "upstream_connections_reused"), stats);
    }

    @Test
    void thePoolKeepsNoMoreIdleConnectionsThanItsSize() throws Exception {
        Upstream u = upstream("u");
        Sidecar s = proxy("--upstream=" + u.addr(), "--pool=0");
        HttpClient c = Http.client();
        for (int i = 0; i < 5; i++) {
            assertEquals(200, Http.get(c, s.port(), "/r").statusCode());
        }
        assertEquals(5, u.clientPorts.size(), "a pool of 0 keeps nothing: one connection per request");
    }

    @Test
    void anUpstreamThatRefusesIsA502() throws Exception {
        int port;
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = ss.getLocalPort();
        }
        Sidecar s = proxy("--upstream=127.0.0.1:" + port);
        HttpResponse<String> r = Http.get(Http.client(), s.port(), "/x");
        assertEquals(502, r.statusCode());
        assertTrue(r.body().contains("cannot connect"), r.body());
    }

    @Test
    void anUpstreamThatHangsUpIsA502AndIsNotRetried() throws Exception {
        ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        open.add(ss);
        AtomicInteger accepted = new AtomicInteger();
        Thread t = new Thread(() -> {
            while (!ss.isClosed()) {
                try (Socket so = ss.accept()) {
                    accepted.incrementAndGet();
                    InputStream in = so.getInputStream();
                    in.read(new byte[4096]);
                } catch (Exception e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
        Sidecar s = proxy("--upstream=127.0.0.1:" + ss.getLocalPort());
        HttpResponse<String> r = Http.get(Http.client(), s.port(), "/x");
        assertEquals(502, r.statusCode());
        assertTrue(r.body().contains("closed the connection"), r.body());
        Thread.sleep(200);
        assertEquals(1, accepted.get(), "no retry: one connection, one attempt");
    }

    @Test
    void anUpstreamsOwnErrorIsPassedOnAsIs() throws Exception {
        Upstream u = upstream("u");
        u.status = 503;
        Sidecar s = proxy("--upstream=" + u.addr());
        HttpResponse<String> r = Http.get(Http.client(), s.port(), "/x");
        assertEquals(503, r.statusCode());
        assertEquals("u /x host=" + u.addr(), r.body());
        assertEquals(1, u.hits.get(), "no retry of a 503");
    }

    @Test
    void aSlowUpstreamIsA504AtTheTimeoutAndIsNotRetried() throws Exception {
        Upstream u = upstream("u");
        u.sleepMs = 3000;
        Sidecar s = proxy("--upstream=" + u.addr(), "--timeout-ms=200");
        HttpClient c = Http.client();
        long t0 = System.nanoTime();
        HttpResponse<String> r = Http.get(c, s.port(), "/slow");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(504, r.statusCode());
        assertTrue(ms >= 190 && ms < 2500, "answered after " + ms + " ms, the timeout is 200 ms");
        assertEquals(1, u.hits.get());
        // The timed-out connection was closed, not pooled: the next request gets a fresh one and works.
        u.sleepMs = 0;
        assertEquals(200, Http.get(c, s.port(), "/fast").statusCode());
        String stats = Http.get(c, s.port(), "/sidecar/stats").body();
        assertEquals(2, Http.number(stats, "upstream_connections_opened"), stats);
        assertEquals(1, Http.number(stats, "gateway_timeout"), stats);
    }

    @Test
    void healthIsAnsweredByTheProxyItself() throws Exception {
        Sidecar s = proxy("--upstream=127.0.0.1:1");
        HttpResponse<String> r = Http.get(Http.client(), s.port(), "/sidecar/health");
        assertEquals(200, r.statusCode());
        assertEquals("{\"status\":\"UP\"}", r.body());
    }

    @Test
    void badArgumentsSayWhatToGive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Config.parse(new String[] {"--port=0"}));
        assertTrue(e.getMessage().contains("--upstream=host:port"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Config.parse(new String[] {"--route=api=127.0.0.1:9"}));
        assertTrue(e.getMessage().contains("/prefix=host:port"), e.getMessage());
    }
}
