package io.github.jvmfit.filecache;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.multipart.MultipartHttpServletRequest;

/** The URL scheme of README.md: every operation is a PUT, every answer HTML. */
@RestController
public class FileCacheController {

    private final FileCache cache;
    private final int maxNameLength;

    public FileCacheController(FileCache cache, FileCacheProperties props) {
        this.cache = cache;
        this.maxNameLength = props.maxNameLength();
    }

    @PutMapping("/upload")
    public ResponseEntity<String> upload(@RequestParam(required = false) String name, HttpServletRequest request)
            throws IOException {
        String n = FileNames.check(name, maxNameLength);
        long version = cache.upload(n, content(request));
        return html(Map.of("X-Version", Long.toString(version)), HtmlPages.uploaded(n, version));
    }

    // The seed sends the content as a form field; accept it with or without a filename.
    private static byte[] content(HttpServletRequest request) throws IOException {
        if (!(request instanceof MultipartHttpServletRequest multipart)) {
            throw new BadRequestException("expected a multipart/form-data body with a field named 'file'");
        }
        MultipartFile file = multipart.getFile("file");
        if (file != null) return file.getBytes();
        String text = multipart.getParameter("file");
        if (text != null) return text.getBytes(StandardCharsets.UTF_8);
        throw new BadRequestException("multipart body has no field named 'file'");
    }

    @PutMapping("/download")
    public ResponseEntity<String> download(@RequestParam(required = false) String name,
                                           @RequestParam(required = false) String version) {
        String n = FileNames.check(name, maxNameLength);
        StoredVersion v = cache.download(n, parseVersion(version));
        return html(Map.of("X-Version", Long.toString(v.number())), HtmlPages.download(n, v));
    }

    private static Long parseVersion(String version) {
        if (version == null || version.isEmpty()) return null;
        try {
            long v = Long.parseLong(version);
            if (v >= 1) return v;
        } catch (NumberFormatException e) {
            // falls through to the same message
        }
        throw new BadRequestException("version must be a whole number >= 1, got '" + version + "'");
    }

    @PutMapping("/list")
    public ResponseEntity<String> list() {
        return html(Map.of(), HtmlPages.list(cache.list(), cache.totalBytes(), cache.maxTotalBytes()));
    }

    @PutMapping("/delete")
    public ResponseEntity<String> delete(@RequestParam(required = false) String name) {
        String n = FileNames.check(name, maxNameLength);
        int count = cache.delete(n);
        return html(Map.of(), HtmlPages.message("Deleted", "deleted " + HtmlPages.escape(n) + " (" + count + " versions)"));
    }

    @PutMapping("/clear")
    public ResponseEntity<String> clear() {
        int count = cache.clear();
        return html(Map.of(), HtmlPages.message("Cleared", "cleared " + count + " files"));
    }

    static ResponseEntity<String> html(Map<String, String> headers, String body) {
        ResponseEntity.BodyBuilder b = ResponseEntity.ok().contentType(HtmlPages.TEXT_HTML);
        headers.forEach((k, v) -> b.header(k, v));
        return b.body(body);
    }
}
