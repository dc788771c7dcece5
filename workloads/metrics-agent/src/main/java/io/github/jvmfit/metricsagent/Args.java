package io.github.jvmfit.metricsagent;

import java.nio.file.Path;

/** The agent's arguments: {@code port-file=PATH,password-file=PATH}. */
record Args(Path portFile, Path passwordFile) {
  static Args parse(String args) {
    Path port = null, password = null;
    for (String kv : (args == null ? "" : args).split(",")) {
      if (kv.isBlank()) {
        continue;
      }
      int eq = kv.indexOf('=');
      String key = eq < 0 ? kv : kv.substring(0, eq);
      String value = eq < 0 ? "" : kv.substring(eq + 1);
      switch (key) {
        case "port-file" -> port = Path.of(value);
        case "password-file" -> password = Path.of(value);
        default -> throw new IllegalArgumentException(
            "metrics-agent: unknown argument '" + key + "': give port-file=PATH,password-file=PATH");
      }
    }
    if (port == null || password == null) {
      throw new IllegalArgumentException(
          "metrics-agent: give -javaagent:metrics-agent.jar=port-file=PATH,password-file=PATH");
    }
    return new Args(port, password);
  }
}
