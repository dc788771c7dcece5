package io.github.jvmfit.greet.helidon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;
import org.junit.jupiter.api.Test;

@ServerTest
class MainTest {
    private final Http1Client client;

    MainTest(Http1Client client) {
        this.client = client;
    }

    @SetUpRoute
    static void routing(HttpRouting.Builder builder) {
        Main.routing(builder);
    }

    @Test
    void greetsAsJson() {
        try (Http1ClientResponse r = client.get("/api/greeting").queryParam("name", "jvmfit").request()) {
            assertEquals(Status.OK_200, r.status());
            assertTrue(r.headers().contentType().orElseThrow().text().startsWith("application/json"));
            assertEquals("{\"message\":\"hello, jvmfit\"}", r.as(String.class));
        }
    }

    @Test
    void greetsTheWorldWithoutAName() {
        assertEquals("{\"message\":\"hello, world\"}", client.get("/api/greeting").requestEntity(String.class));
    }

    @Test
    void healthAnswersNoContent() {
        try (Http1ClientResponse r = client.get("/observe/health").request()) {
            assertEquals(Status.NO_CONTENT_204, r.status());
        }
    }
}
