package io.github.jvmfit.heapbound;

/** Command-line settings, {@code --name=value}; every one has a default. */
record Config(int port, long liveBytes, int garbageBytes, int workers) {
    static final Config DEFAULTS = new Config(8080, 24L << 20, 256 << 10, 4);
    private static final String KNOWN = "--port, --live-mib, --garbage-kib, --workers";

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
                case "port" -> c = new Config(number(a, v, 0, 65535), c.liveBytes, c.garbageBytes, c.workers);
                case "live-mib" -> c = new Config(c.port, (long) number(a, v, 1, 65536) << 20, c.garbageBytes, c.workers);
                case "garbage-kib" -> c = new Config(c.port, c.liveBytes, number(a, v, 1, 1 << 20) << 10, c.workers);
                case "workers" -> c = new Config(c.port, c.liveBytes, c.garbageBytes, number(a, v, 1, 1024));
                default -> throw new IllegalArgumentException("unknown option --" + name + " (known: " + KNOWN + ")");
            }
        }
        return c;
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
