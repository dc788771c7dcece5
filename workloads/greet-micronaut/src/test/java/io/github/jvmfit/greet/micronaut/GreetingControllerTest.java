package io.github.jvmfit.greet.micronaut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

@MicronautTest
class GreetingControllerTest {
    @Inject
    @Client("/")
    HttpClient client;

    @Test
    void greetsAsJson() {
        HttpResponse<String> r = client.toBlocking().exchange(HttpRequest.GET("/api/greeting?name=jvmfit"), String.class);
        assertEquals(200, r.code());
        assertTrue(r.getContentType().orElseThrow().toString().startsWith("application/json"));
        assertEquals("{\"message\":\"hello, jvmfit\"}", r.body());
    }

    @Test
    void greetsTheWorldWithoutAName() {
        assertEquals("{\"message\":\"hello, world\"}", client.toBlocking().retrieve("/api/greeting"));
    }

    @Test
    void healthIsUp() {
        HttpResponse<String> r = client.toBlocking().exchange(HttpRequest.GET("/health"), String.class);
        assertEquals(200, r.code());
        assertTrue(r.body().contains("\"status\":\"UP\""), r.body());
    }
}
