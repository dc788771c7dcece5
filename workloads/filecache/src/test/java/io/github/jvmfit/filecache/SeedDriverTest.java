package io.github.jvmfit.filecache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** Seed 001's two phases, scaled down, against the started service. */
// Same properties as FileCacheHttpTest, so both share one started context.
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "filecache.max-upload-size=64KB",
        "filecache.max-total-size=1MB",
        "filecache.max-name-length=64"})
class SeedDriverTest {

    @LocalServerPort
    int port;

    @Test
    void bothPhasesSucceedAndFillTheCache() throws Exception {
        CacheClient client = new CacheClient(port);
        client.clear();
        SeedDriver driver = new SeedDriver("http://127.0.0.1:" + port);
        int files = 20;

        SeedDriver.Outcome load = driver.load(files);
        assertThat(load.ok()).as(load.toString()).isEqualTo(files);
        Map<String, Integer> afterLoad = client.list();
        assertThat(afterLoad).hasSize(files).allSatisfy((name, count) -> assertThat(count).isEqualTo(1));

        // 20 workers over 20 files: worker w starts at file w and uploads at its requests 9, 19, ...,
        // i.e. alternately to files w+9 and w+19 (mod 20), 5 times each. Every file thus gets
        // 10 uploads from two workers on top of phase one's: 11 versions, 10 kept.
        SeedDriver.Outcome mix = driver.mix(files, 20, 100);
        assertThat(mix.ok()).as(mix.toString()).isEqualTo(2000);
        assertThat(client.list()).hasSize(files).allSatisfy((name, count) -> assertThat(count).isEqualTo(10));
        assertThat(client.download("f0", null).headers().firstValue("X-Version")).hasValue("11");
    }
}
