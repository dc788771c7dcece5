package io.github.jvmfit.directbuf;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A loopback client for the tests, and a reader of one number in a flat JSON answer. */
final class Http {
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private Http() {
    }

    static HttpResponse<byte[]> send(int port, String method, String path, byte[] body) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        return CLIENT.send(r, HttpResponse.BodyHandlers.ofByteArray());
    }

    static HttpResponse<byte[]> get(int port, String path) throws Exception {
        return send(port, "GET", path, null);
    }

    static String text(HttpResponse<byte[]> r) {
        return new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
    }

    static long number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(-?\\d+)").matcher(json);
        if (!m.find()) {
            throw new AssertionError("no number " + key + " in " + json);
        }
        return Long.parseLong(m.group(1));
    }
}
