package io.github.jvmfit.catalog;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The running service over real HTTP on loopback: status, parsed JSON and Location. */
final class Api {
    record Answer(int status, JsonNode json, String body, String location) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    Api(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    Answer get(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    Answer post(String path, String json) throws Exception {
        return send(json(path, json).POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    Answer put(String path, String json) throws Exception {
        return send(json(path, json).PUT(HttpRequest.BodyPublishers.ofString(json)));
    }

    private HttpRequest.Builder json(String path, String body) {
        return HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json");
    }

    private Answer send(HttpRequest.Builder b) throws Exception {
        HttpResponse<String> r = http.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode node = null;
        try {
            node = JSON.readTree(r.body());
        } catch (Exception notJson) {
            // left null: an assertion on json() shows the body
        }
        return new Answer(r.statusCode(), node, r.body(), r.headers().firstValue("Location").orElse(null));
    }
}
