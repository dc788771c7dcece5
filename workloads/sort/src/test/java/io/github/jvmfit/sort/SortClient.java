package io.github.jvmfit.sort;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/** Real HTTP on loopback against the started service. */
final class SortClient {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    SortClient(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String json) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/sort")).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String body(List<List<Integer>> lists) {
        return lists.stream()
                .map(l -> l.stream().map(String::valueOf).collect(Collectors.joining(",", "{\"list\":[", "]}")))
                .collect(Collectors.joining(",", "{\"intList\":[", "]}"));
    }
}
