package io.github.jvmfit.greet.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

// Tests leave metrics exporters off unless asked: the Prometheus endpoint is under test.
@AutoConfigureObservability
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class GreetHttpTest {
    @LocalServerPort
    int port;

    HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void greetsAsJson() throws Exception {
        HttpResponse<String> r = get("/api/greeting?name=jvmfit");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        assertThat(r.body()).isEqualTo("{\"message\":\"hello, jvmfit\"}");
    }

    @Test
    void greetsTheWorldWithoutAName() throws Exception {
        assertThat(get("/api/greeting").body()).isEqualTo("{\"message\":\"hello, world\"}");
    }

    @Test
    void healthIsUp() throws Exception {
        HttpResponse<String> r = get("/actuator/health");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"status\":\"UP\"");
    }

    @Test
    void prometheusHasTheJvmMeters() throws Exception {
        HttpResponse<String> r = get("/actuator/prometheus");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("jvm_memory_used_bytes{area=\"nonheap\",id=\"Metaspace\"")
                .contains("jvm_threads_peak_threads").contains("jvm_gc_live_data_size_bytes");
    }
}
