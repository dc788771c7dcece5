package io.github.jvmfit.filecache;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.springframework.http.MediaType;
import org.springframework.web.util.HtmlUtils;

/** The HTML answers. Small and stable: tests and the load generator read them. */
final class HtmlPages {
    static final MediaType TEXT_HTML = new MediaType("text", "html", StandardCharsets.UTF_8);

    private HtmlPages() {
    }

    static String escape(String s) {
        return HtmlUtils.htmlEscape(s, "UTF-8");
    }

    private static String page(String title, String body) {
        return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + escape(title)
                + "</title></head><body>\n" + body + "\n</body></html>\n";
    }

    static String uploaded(String name, long version) {
        return page("Uploaded", "<p>uploaded " + escape(name) + " version <span id=\"version\">" + version + "</span></p>");
    }

    static String download(String name, StoredVersion v) {
        String text = new String(v.content(), StandardCharsets.UTF_8);
        return page(name + " v" + v.number(),
                "<h1>" + escape(name) + " version " + v.number() + "</h1>\n<pre>" + escape(text) + "</pre>");
    }

    static String list(Map<String, Integer> files, long bytes, long maxBytes) {
        StringBuilder b = new StringBuilder(64 + files.size() * 48);
        b.append("<p>").append(files.size()).append(" files, ").append(bytes).append(" of ").append(maxBytes)
                .append(" bytes</p>\n<table id=\"files\">\n<tr><th>name</th><th>versions</th></tr>\n");
        files.forEach((name, count) -> b.append("<tr><td>").append(escape(name)).append("</td><td>")
                .append(count).append("</td></tr>\n"));
        b.append("</table>");
        return page("Files", b.toString());
    }

    static String message(String title, String escapedText) {
        return page(title, "<p>" + escapedText + "</p>");
    }

    static String error(int status, String text) {
        return page("Error " + status, "<p class=\"error\">" + status + ": " + escape(text) + "</p>");
    }
}
