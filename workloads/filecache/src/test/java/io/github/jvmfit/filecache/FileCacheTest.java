package io.github.jvmfit.filecache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The byte accounting behind filecache.max-total-size, without HTTP. */
class FileCacheTest {

    @Test
    void totalFollowsUploadsEvictionsDeletesAndClear() {
        FileCache cache = new FileCache(3, 1000);
        cache.upload("a", new byte[100]);
        cache.upload("a", new byte[200]);
        cache.upload("a", new byte[300]);
        assertThat(cache.totalBytes()).isEqualTo(600);
        assertThat(cache.upload("a", new byte[50])).isEqualTo(4); // evicts the 100
        assertThat(cache.totalBytes()).isEqualTo(550);
        cache.upload("b", new byte[400]);
        assertThat(cache.totalBytes()).isEqualTo(950);
        assertThatThrownBy(() -> cache.upload("c", new byte[51])).isInstanceOf(CacheFullException.class);
        assertThat(cache.list()).containsOnlyKeys("a", "b");
        assertThat(cache.totalBytes()).isEqualTo(950);
        // Replacing the 200 with 250 fits exactly.
        assertThat(cache.upload("a", new byte[250])).isEqualTo(5);
        assertThat(cache.totalBytes()).isEqualTo(1000);
        assertThat(cache.delete("b")).isEqualTo(1);
        assertThat(cache.totalBytes()).isEqualTo(600);
        assertThat(cache.clear()).isEqualTo(1);
        assertThat(cache.totalBytes()).isZero();
    }

    @Test
    void unknownNamesAndVersionsAreNotFound() {
        FileCache cache = new FileCache(10, 1000);
        assertThatThrownBy(() -> cache.download("x", null)).isInstanceOf(NotFoundException.class);
        cache.upload("x", new byte[]{1});
        assertThatThrownBy(() -> cache.download("x", 2L)).hasMessageContaining("no version 2");
        assertThatThrownBy(() -> cache.delete("y")).isInstanceOf(NotFoundException.class);
    }
}
