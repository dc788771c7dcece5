package io.github.jvmfit.metricsagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentTest {
  @Test
  void servesTheJvmsPoolsOnlyToItsUser(@TempDir Path dir) throws Exception {
    Path portFile = dir.resolve("port");
    Path passFile = dir.resolve("pass");
    Files.writeString(passFile, "s3cret\n");
    Agent.premain("port-file=" + portFile + ",password-file=" + passFile);
    int port = Integer.parseInt(Files.readString(portFile).strip());
    HttpClient client = HttpClient.newHttpClient();
    URI uri = URI.create("http://127.0.0.1:" + port + "/metrics");

    HttpResponse<String> none = client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, none.statusCode(), "no credentials");
    HttpResponse<String> wrong = client.send(auth(uri, "jvmfit", "guess"), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, wrong.statusCode(), "a wrong password");

    HttpResponse<String> ok = client.send(auth(uri, "jvmfit", "s3cret"), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, ok.statusCode());
    // The names jvmfit's scrape reads as client_java's (internal/profile/metrics.go).
    for (String want : new String[] {
        "jvm_memory_pool_used_bytes{pool=\"Metaspace\"}", "jvm_memory_pool_committed_bytes{",
        "jvm_threads_peak ", "jvm_buffer_pool_used_bytes{pool=\"direct\"}", "jvm_classes_currently_loaded "}) {
      assertTrue(ok.body().contains(want), "no " + want + " in:\n" + ok.body());
    }
  }

  @Test
  void refusesBadArguments() {
    assertThrows(IllegalArgumentException.class, () -> Args.parse("port-file=/x"));
    assertThrows(IllegalArgumentException.class, () -> Args.parse("port-file=/x,password-file=/y,gc=1"));
    assertEquals(Path.of("/y"), Args.parse("port-file=/x,password-file=/y").passwordFile());
  }

  private static HttpRequest auth(URI uri, String user, String pass) {
    String token = Base64.getEncoder().encodeToString((user + ":" + pass).getBytes(StandardCharsets.UTF_8));
    return HttpRequest.newBuilder(uri).header("Authorization", "Basic " + token).build();
  }
}
