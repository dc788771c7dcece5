package io.github.jvmfit.greet.plain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class GreetTest {
    static HttpServer server;

    @BeforeAll
    static void start() throws Exception {
        server = Greet.start(0);
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    static HttpResponse<String> get(String path) throws Exception {
        URI u = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(u).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void greetsAsJson() throws Exception {
        HttpResponse<String> r = get("/api/greeting?name=jvmfit");
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElseThrow().startsWith("application/json"));
        assertEquals("{\"message\":\"hello, jvmfit\"}", r.body());
    }

    @Test
    void greetsTheWorldWithoutAName() throws Exception {
        assertEquals("{\"message\":\"hello, world\"}", get("/api/greeting").body());
    }

    @Test
    void healthIsUp() throws Exception {
        HttpResponse<String> r = get("/health");
        assertEquals(200, r.statusCode());
        assertEquals("{\"status\":\"UP\"}", r.body());
    }
}
