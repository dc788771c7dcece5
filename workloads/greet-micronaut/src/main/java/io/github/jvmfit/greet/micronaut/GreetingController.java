package io.github.jvmfit.greet.micronaut;

import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.serde.annotation.Serdeable;

@Controller("/api/greeting")
public class GreetingController {
    @Serdeable
    public record Greeting(String message) {}

    @Get
    public Greeting greet(@QueryValue(defaultValue = "world") String name) {
        return new Greeting("hello, " + name);
    }
}
