package io.github.jvmfit.filecache;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The in-heap store. Per-name updates go through ConcurrentHashMap.compute, so
 * concurrent uploads of one name are serialised and never lose a version; the
 * total size is a separate counter that an upload reserves before it commits.
 */
@Component
public class FileCache {

    private final ConcurrentHashMap<String, Versions> files = new ConcurrentHashMap<>();
    private final AtomicLong totalBytes = new AtomicLong();
    private final int maxVersions;
    private final long maxTotalBytes;

    @Autowired
    public FileCache(FileCacheProperties props) {
        this(props.maxVersions(), props.maxTotalSize().toBytes());
    }

    FileCache(int maxVersions, long maxTotalBytes) {
        this.maxVersions = maxVersions;
        this.maxTotalBytes = maxTotalBytes;
    }

    /** Stores a new version and returns its number. */
    public long upload(String name, byte[] content) {
        Versions stored = files.compute(name, (k, old) -> {
            Versions before = old == null ? Versions.NONE : old;
            Versions after = before.add(content, maxVersions);
            reserve(after.bytes() - before.bytes());
            return after;
        });
        return stored.latest();
    }

    // Throwing inside compute leaves the mapping unchanged, so a refused upload stores nothing.
    private void reserve(long delta) {
        while (true) {
            long used = totalBytes.get();
            if (delta > 0 && used + delta > maxTotalBytes) {
                throw new CacheFullException(used, delta, maxTotalBytes);
            }
            if (totalBytes.compareAndSet(used, used + delta)) return;
        }
    }

    /** The given version, or the newest when version is null. */
    public StoredVersion download(String name, Long version) {
        Versions v = files.get(name);
        if (v == null) throw new NotFoundException("no file named '" + name + "'");
        if (version == null) return v.newest();
        StoredVersion found = v.find(version);
        if (found == null) {
            throw new NotFoundException("file '" + name + "' has no version " + version
                    + " (kept: " + v.kept().get(0).number() + ".." + v.latest() + ")");
        }
        return found;
    }

    /** Name → number of kept versions, sorted by name. */
    public Map<String, Integer> list() {
        Map<String, Integer> out = new TreeMap<>();
        files.forEach((name, v) -> out.put(name, v.kept().size()));
        return out;
    }

    /** Removes every version of a name and returns how many there were. */
    public int delete(String name) {
        int[] count = {-1};
        files.computeIfPresent(name, (k, v) -> {
            totalBytes.addAndGet(-v.bytes());
            count[0] = v.kept().size();
            return null;
        });
        if (count[0] < 0) throw new NotFoundException("no file named '" + name + "'");
        return count[0];
    }

    /** Removes everything; returns the number of names removed. */
    public int clear() {
        List<String> names = new ArrayList<>(files.keySet());
        int removed = 0;
        for (String name : names) {
            boolean[] hit = {false};
            files.computeIfPresent(name, (k, v) -> {
                totalBytes.addAndGet(-v.bytes());
                hit[0] = true;
                return null;
            });
            if (hit[0]) removed++;
        }
        return removed;
    }

    public long totalBytes() {
        return totalBytes.get();
    }

    public long maxTotalBytes() {
        return maxTotalBytes;
    }
}
