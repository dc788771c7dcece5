package io.github.jvmfit.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The database goes away under a running service: 503 with a clear message, readiness down, then back. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.datasource.hikari.connection-timeout=2000")
class DatabaseDownTest extends WithPostgres {
    @LocalServerPort
    int port;

    @Test
    void downDatabaseIs503AndNotReadyThenRecovers() throws Exception {
        Api api = new Api(port);
        assertEquals(200, api.get("/actuator/health").status());
        assertEquals(200, api.get("/api/products").status());

        db.pause();
        // Pooled connections die with the server; every list must now fail the same clear way.
        for (String p : new String[] {"/api/products", "/api/customers", "/api/orders", "/api/order-lines", "/api/orders/1"}) {
            Api.Answer a = api.get(p);
            if (a.status() != 503) {
                a = api.get(p); // the first use of a dead pooled connection may surface differently
            }
            assertEquals(503, a.status(), p + ": " + a.body());
            assertTrue(a.json().get("error").asText().startsWith("database unavailable"), a.body());
            assertFalse(a.body().contains("at org.") || a.body().contains("Exception"), "stack trace in " + a.body());
        }
        Api.Answer post = api.post("/api/orders", "{\"customerId\":1,\"lines\":[{\"productId\":1,\"quantity\":1}]}");
        assertEquals(503, post.status(), post.body());

        Api.Answer health = api.get("/actuator/health");
        assertEquals(503, health.status(), health.body());
        assertEquals("DOWN", health.json().get("components").get("db").get("status").asText());

        db.resume();
        long deadline = System.nanoTime() + 30_000_000_000L;
        int status = 0;
        while (System.nanoTime() < deadline && (status = api.get("/actuator/health").status()) != 200) {
            Thread.sleep(200);
        }
        assertEquals(200, status, "readiness did not come back within 30s of the database");
        assertEquals(200, api.get("/api/products").status());
    }
}
