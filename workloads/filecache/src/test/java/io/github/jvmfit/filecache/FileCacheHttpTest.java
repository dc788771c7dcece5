package io.github.jvmfit.filecache;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** Drives the started service over real HTTP on loopback. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "filecache.max-upload-size=64KB",
        "filecache.max-total-size=1MB",
        "filecache.max-name-length=64"})
class FileCacheHttpTest {

    @LocalServerPort
    int port;

    CacheClient client;

    @BeforeEach
    void empty() {
        client = new CacheClient(port);
        assertThat(client.clear().statusCode()).isEqualTo(200);
    }

    static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void eleventhUploadEvictsTheOldest() {
        for (int i = 1; i <= 11; i++) {
            HttpResponse<String> r = client.upload("doc", text("content of v" + i));
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("X-Version")).hasValue(Integer.toString(i));
            assertThat(r.body()).contains("<span id=\"version\">" + i + "</span>");
        }
        assertThat(client.list()).containsExactly(Map.entry("doc", 10));
        assertThat(client.download("doc", 1L).statusCode()).isEqualTo(404);
        assertThat(CacheClient.pre(client.download("doc", 2L).body())).isEqualTo("content of v2");
        HttpResponse<String> newest = client.download("doc", null);
        assertThat(newest.headers().firstValue("X-Version")).hasValue("11");
        assertThat(CacheClient.pre(newest.body())).isEqualTo("content of v11");
    }

    @Test
    void fiftyConcurrentUploadsOfOneNameKeepTenIntactVersions() throws Exception {
        int threads = 50;
        // Distinct, long, self-describing payloads: a torn or mixed write would not match any of them.
        List<String> payloads = new ArrayList<>();
        for (int t = 0; t < threads; t++) payloads.add(("writer-" + t + ";").repeat(150));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<HttpResponse<String>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                byte[] body = text(payloads.get(t));
                results.add(pool.submit(() -> {
                    go.await();
                    return client.upload("shared", body);
                }));
            }
            go.countDown();
            Set<String> versions = new HashSet<>();
            for (Future<HttpResponse<String>> f : results) {
                HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                versions.add(r.headers().firstValue("X-Version").orElseThrow());
            }
            Set<String> expected = new HashSet<>();
            for (int v = 1; v <= threads; v++) expected.add(Integer.toString(v));
            assertThat(versions).as("every upload got its own version number").isEqualTo(expected);
        } finally {
            pool.shutdownNow();
        }
        assertThat(client.list()).containsExactly(Map.entry("shared", 10));
        Set<String> seen = new HashSet<>();
        for (long v = 41; v <= 50; v++) {
            HttpResponse<String> r = client.download("shared", v);
            assertThat(r.statusCode()).isEqualTo(200);
            String content = CacheClient.pre(r.body());
            assertThat(payloads).as("version %d holds one whole upload", v).contains(content);
            seen.add(content);
        }
        assertThat(seen).as("ten different uploads kept").hasSize(10);
        assertThat(client.download("shared", 40L).statusCode()).isEqualTo(404);
    }

    @Test
    void oversizeUploadIsRefusedWith413AndNotStored() {
        HttpResponse<String> r = client.upload("big", new byte[64 * 1024 + 1]);
        assertThat(r.statusCode()).isEqualTo(413);
        assertThat(r.body()).contains("upload larger than 65536 bytes");
        assertThat(client.upload("fits", new byte[64 * 1024]).statusCode()).isEqualTo(200);
        assertThat(client.list()).containsOnlyKeys("fits");
    }

    @Test
    void malformedMultipartIsRefusedWith400() {
        byte[] good = CacheClient.multipart("b0undary", text("x"));
        // No boundary parameter: the body cannot be split.
        assertThat(client.put("/upload?name=m", "multipart/form-data", good).statusCode()).isEqualTo(400);
        // Cut before the closing boundary.
        byte[] truncated = java.util.Arrays.copyOf(good, good.length - 16);
        assertThat(client.put("/upload?name=m", "multipart/form-data; boundary=b0undary", truncated).statusCode()).isEqualTo(400);
        // Not multipart at all, and multipart without the 'file' field.
        assertThat(client.put("/upload?name=m", "text/plain", text("x")).statusCode()).isEqualTo(400);
        byte[] otherField = new String(good, StandardCharsets.US_ASCII).replace("name=\"file\"", "name=\"other\"")
                .getBytes(StandardCharsets.US_ASCII);
        HttpResponse<String> r = client.put("/upload?name=m", "multipart/form-data; boundary=b0undary", otherField);
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("no field named &#39;file&#39;");
        assertThat(client.list()).isEmpty();
    }

    @Test
    void pathLikeAndOverlongNamesAreRefusedWith400() {
        for (String bad : List.of("../etc/passwd", "a/b", "..\\x", "..", ".", "", "tab\there", "x".repeat(65))) {
            HttpResponse<String> r = client.upload(bad, text("x"));
            assertThat(r.statusCode()).as("name %s", bad).isEqualTo(400);
            assertThat(r.body()).contains("file name");
        }
        assertThat(client.upload("x".repeat(64), text("x")).statusCode()).isEqualTo(200);
        assertThat(client.download("../etc/passwd", null).statusCode()).isEqualTo(400);
        assertThat(client.list()).containsOnlyKeys("x".repeat(64));
    }

    @Test
    void listAndDeleteSemantics() {
        client.upload("a", text("a1"));
        client.upload("a", text("a2"));
        client.upload("b", text("b1"));
        assertThat(client.list()).containsExactly(Map.entry("a", 2), Map.entry("b", 1));

        HttpResponse<String> del = client.delete("a");
        assertThat(del.statusCode()).isEqualTo(200);
        assertThat(del.body()).contains("deleted a (2 versions)");
        assertThat(client.list()).containsExactly(Map.entry("b", 1));
        assertThat(client.download("a", null).statusCode()).isEqualTo(404);
        assertThat(client.delete("a").statusCode()).isEqualTo(404);
        // A deleted name starts again from version 1.
        assertThat(client.upload("a", text("again")).headers().firstValue("X-Version")).hasValue("1");

        HttpResponse<String> clear = client.clear();
        assertThat(clear.body()).contains("cleared 2 files");
        assertThat(client.list()).isEmpty();
        assertThat(client.download("b", null).statusCode()).isEqualTo(404);
    }

    @Test
    void downloadEscapesHtmlAndChecksTheVersion() {
        client.upload("page", text("<script>alert('x')</script> & more"));
        HttpResponse<String> r = client.download("page", null);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/html"));
        assertThat(r.body()).contains("<pre>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more</pre>");
        assertThat(client.download("page", 2L).statusCode()).isEqualTo(404);
        assertThat(client.download("page", 0L).statusCode()).isEqualTo(400);
        assertThat(client.put("/download?name=page&version=abc", null, null).statusCode()).isEqualTo(400);
        assertThat(client.put("/download", null, null).statusCode()).isEqualTo(400);
    }

    @Test
    void totalSizeIsBoundedAndEvictedVersionsAreNotCounted() {
        byte[] chunk = new byte[60 * 1024];
        // 30 uploads of one name keep only 10 x 60 KiB = 600 KiB: under the 1 MiB bound.
        for (int i = 0; i < 30; i++) assertThat(client.upload("one", chunk).statusCode()).isEqualTo(200);
        int stored = 0;
        HttpResponse<String> r;
        while ((r = client.upload("other" + stored, chunk)).statusCode() == 200) {
            stored++;
            assertThat(stored).as("bound never reached").isLessThan(20);
        }
        assertThat(r.statusCode()).isEqualTo(507);
        assertThat(r.body()).contains("cache full");
        assertThat(stored).isEqualTo(7); // 1 MiB / 60 KiB = 17 slots, 10 taken by "one"
        assertThat(client.delete("one").statusCode()).isEqualTo(200);
        assertThat(client.upload("after-delete", chunk).statusCode()).isEqualTo(200);
    }

    @Test
    void servesTheBrowserPageAndHealth() throws Exception {
        HttpResponse<String> page = client.get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("method: 'PUT'").contains("upload").contains("download");
        assertThat(client.get("/actuator/health").body()).contains("\"UP\"");
        assertThat(client.get("/actuator/env").statusCode()).isEqualTo(404);
    }
}
