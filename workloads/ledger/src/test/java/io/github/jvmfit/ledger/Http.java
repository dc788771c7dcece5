package io.github.jvmfit.ledger;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The service on loopback over real HTTP: each reply's status, its JSON (null if none) and its Location. */
final class Http {
    record Reply(int status, JsonNode json, String body, String location) {}

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    Http(int port) {
        base = "http://127.0.0.1:" + port;
    }

    Reply get(String path) throws Exception {
        return call(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    Reply post(String path, String body) throws Exception {
        return call(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private Reply call(HttpRequest.Builder request) throws Exception {
        HttpResponse<String> r = client.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode json;
        try {
            json = MAPPER.readTree(r.body());
        } catch (Exception notJson) {
            json = null;
        }
        return new Reply(r.statusCode(), json, r.body(), r.headers().firstValue("Location").orElse(null));
    }
}
