package io.github.jvmfit.sidecar;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A loopback client for the tests (one HTTP/1.1 client: it keeps its connection alive). */
final class Http {
    private Http() {
    }

    static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    }

    static HttpResponse<String> get(HttpClient c, int port, String path) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).build();
        return c.send(r, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    static long number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(-?\\d+)").matcher(json);
        if (!m.find()) {
            throw new AssertionError("no number " + key + " in " + json);
        }
        return Long.parseLong(m.group(1));
    }
}
