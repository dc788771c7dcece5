package io.github.jvmfit.vthreads;

/** Command-line settings, {@code --name=value}; every one has a default. */
record Config(int port, int depth, int sleepMs) {
    static final Config DEFAULTS = new Config(8080, 100, 1000);
    static final int MAX_DEPTH = 3000;
    static final int MAX_SLEEP_MS = 60_000;
    private static final String KNOWN = "--port, --depth, --sleep-ms";

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
                case "port" -> c = new Config(number(a, v, 0, 65535), c.depth, c.sleepMs);
                case "depth" -> c = new Config(c.port, number(a, v, 0, MAX_DEPTH), c.sleepMs);
                case "sleep-ms" -> c = new Config(c.port, c.depth, number(a, v, 0, MAX_SLEEP_MS));
                default -> throw new IllegalArgumentException("unknown option --" + name + " (known: " + KNOWN + ")");
            }
        }
        return c;
    }

    static int number(String what, String v, int min, int max) {
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(what + ": expected a whole number from " + min + " to " + max);
    }
}
