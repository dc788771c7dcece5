package io.github.jvmfit.filecache;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A real HTTP client for the cache's URL scheme, used by the tests. */
final class CacheClient {
    private static final Pattern ROW = Pattern.compile("<tr><td>(.*?)</td><td>(\\d+)</td></tr>");
    private static final Pattern PRE = Pattern.compile("(?s)<pre>(.*)</pre>");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    CacheClient(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    HttpResponse<String> put(String pathAndQuery, String contentType, byte[] body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(30))
                .PUT(body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) b.header("Content-Type", contentType);
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException("PUT " + pathAndQuery + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> upload(String name, byte[] content) {
        String boundary = "jvmfit-test-boundary";
        return put("/upload?name=" + q(name), "multipart/form-data; boundary=" + boundary, multipart(boundary, content));
    }

    static byte[] multipart(String boundary, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 256);
        out.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"f.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(content);
        out.writeBytes(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    HttpResponse<String> download(String name, Long version) {
        return put("/download?name=" + q(name) + (version == null ? "" : "&version=" + version), null, null);
    }

    HttpResponse<String> delete(String name) {
        return put("/delete?name=" + q(name), null, null);
    }

    HttpResponse<String> clear() {
        return put("/clear", null, null);
    }

    /** Name → version count, read back from the HTML table of PUT /list. */
    Map<String, Integer> list() {
        HttpResponse<String> r = put("/list", null, null);
        if (r.statusCode() != 200) throw new IllegalStateException("list: " + r.statusCode() + " " + r.body());
        Map<String, Integer> out = new TreeMap<>();
        Matcher m = ROW.matcher(r.body());
        while (m.find()) out.put(m.group(1), Integer.parseInt(m.group(2)));
        return out;
    }

    /** The text between pre tags, still HTML-escaped. */
    static String pre(String html) {
        Matcher m = PRE.matcher(html);
        if (!m.find()) throw new IllegalStateException("no <pre> in " + html);
        return m.group(1);
    }
}
