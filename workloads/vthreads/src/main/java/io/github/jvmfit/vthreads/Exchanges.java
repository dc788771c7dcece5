package io.github.jvmfit.vthreads;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import com.sun.net.httpserver.HttpExchange;

/** Writing one whole answer, the only way the handlers answer. */
final class Exchanges {
    private Exchanges() {
    }

    static void json(HttpExchange ex, int status, String body) throws IOException {
        send(ex, status, "application/json", body);
    }

    static void send(HttpExchange ex, int status, String contentType, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", contentType);
        ex.sendResponseHeaders(status, b.length == 0 ? -1 : b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    /** The answer to anything but a GET: 405 with the allowed method. */
    static boolean onlyGet(HttpExchange ex) throws IOException {
        if ("GET".equals(ex.getRequestMethod())) {
            return true;
        }
        ex.getResponseHeaders().set("Allow", "GET");
        json(ex, 405, "{\"error\":\"method " + ex.getRequestMethod() + " not allowed; use GET\"}");
        return false;
    }
}
