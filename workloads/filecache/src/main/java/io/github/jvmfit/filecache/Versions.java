package io.github.jvmfit.filecache;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The kept versions of one name, oldest first. Immutable: an upload builds a
 * new instance, so downloads read a consistent snapshot without locking.
 *
 * @param latest the highest version number ever given to this name
 */
record Versions(long latest, List<StoredVersion> kept, long bytes) {

    static final Versions NONE = new Versions(0, List.of(), 0);

    Versions add(byte[] content, int maxVersions) {
        List<StoredVersion> next = new ArrayList<>(Math.min(kept.size() + 1, maxVersions));
        int drop = Math.max(0, kept.size() + 1 - maxVersions);
        long size = bytes;
        for (int i = 0; i < kept.size(); i++) {
            if (i < drop) size -= kept.get(i).content().length;
            else next.add(kept.get(i));
        }
        next.add(new StoredVersion(latest + 1, content));
        return new Versions(latest + 1, Collections.unmodifiableList(next), size + content.length);
    }

    StoredVersion newest() {
        return kept.get(kept.size() - 1);
    }

    StoredVersion find(long version) {
        for (StoredVersion v : kept) {
            if (v.number() == version) return v;
        }
        return null;
    }
}
