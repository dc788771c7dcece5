package io.github.jvmfit.filecache;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Bounds of the cache. The upload limit itself is enforced by the multipart
 * parser (spring.servlet.multipart.*, derived from maxUploadSize in
 * application.properties) so an oversize body is refused before it is buffered.
 *
 * @param maxVersions   versions kept per name; the next upload evicts the oldest
 * @param maxUploadSize largest accepted file content (413 beyond)
 * @param maxTotalSize  sum of all stored contents (507 beyond)
 * @param maxNameLength longest accepted file name (400 beyond)
 */
@ConfigurationProperties("filecache")
public record FileCacheProperties(int maxVersions, DataSize maxUploadSize, DataSize maxTotalSize, int maxNameLength) {
    public FileCacheProperties {
        if (maxVersions < 1) throw new IllegalArgumentException("filecache.max-versions must be >= 1, got " + maxVersions);
        if (maxNameLength < 1) throw new IllegalArgumentException("filecache.max-name-length must be >= 1, got " + maxNameLength);
    }
}
