package io.github.jvmfit.greet.micronaut;

import io.micronaut.runtime.Micronaut;

/** GET /api/greeting?name=N answers {"message":"hello, N"}; GET /health is readiness. */
public class Application {
    public static void main(String[] args) {
        Micronaut.run(Application.class, args);
    }
}
