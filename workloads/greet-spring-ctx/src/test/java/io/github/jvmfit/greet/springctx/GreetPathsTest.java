package io.github.jvmfit.greet.springctx;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

// RANDOM_PORT gives the management port a random one too, as it differs
// from server.port in the jar's configuration.
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class GreetPathsTest {
    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    HttpResponse<String> get(int p, String path) throws Exception {
        return HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + p + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void greetsUnderTheContextPath() throws Exception {
        HttpResponse<String> r = get(port, "/greet/api/greeting?name=jvmfit");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"message\":\"hello, jvmfit\"}");
    }

    @Test
    void nothingOutsideTheContextPath() throws Exception {
        assertThat(get(port, "/api/greeting").statusCode()).isEqualTo(404);
    }

    @Test
    void healthIsOnTheManagementPortUnderManage() throws Exception {
        assertThat(managementPort).isNotEqualTo(port);
        HttpResponse<String> r = get(managementPort, "/manage/health");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("\"status\":\"UP\"");
    }

    @Test
    void noHealthOnTheAppPort() throws Exception {
        assertThat(get(port, "/greet/actuator/health").statusCode()).isEqualTo(404);
        assertThat(get(port, "/greet/manage/health").statusCode()).isEqualTo(404);
    }
}
