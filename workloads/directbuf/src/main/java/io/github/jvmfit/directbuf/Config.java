package io.github.jvmfit.directbuf;

/** Command-line settings, {@code --name=value}; every one has a default. */
record Config(int port, int blobsMiB, int blobKiB, int threads) {
    static final Config DEFAULTS = new Config(8080, 48, 64, 2);
    private static final String KNOWN = "--port, --blobs-mib, --blob-kib, --threads";

    static Config parse(String[] args) {
        Config c = DEFAULTS;
        for (String a : args) {
            int eq = a.indexOf('=');
            if (!a.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("argument " + a + ": expected --name=value (" + KNOWN + ")");
            }
            String name = a.substring(2, eq);
            String v = a.substring(eq + 1);
            switch (name) {
                case "port" -> c = new Config(number(a, v, 0, 65535), c.blobsMiB, c.blobKiB, c.threads);
                case "blobs-mib" -> c = new Config(c.port, number(a, v, 1, 16384), c.blobKiB, c.threads);
                case "blob-kib" -> c = new Config(c.port, c.blobsMiB, number(a, v, 1, 1024), c.threads);
                case "threads" -> c = new Config(c.port, c.blobsMiB, c.blobKiB, number(a, v, 1, 256));
                default -> throw new IllegalArgumentException("unknown option --" + name + " (known: " + KNOWN + ")");
            }
        }
        return c;
    }

    /** Blobs in the store: the working set divided into blobs of the blob size. */
    int blobCount() {
        return blobsMiB * 1024 / blobKiB;
    }

    int blobBytes() {
        return blobKiB << 10;
    }

    private static int number(String arg, String v, int min, int max) {
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("argument " + arg + ": expected a whole number from " + min + " to " + max);
    }
}
