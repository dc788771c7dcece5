package io.github.jvmfit.greet.springctx;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class GreetingController {
    record Greeting(String message) {}

    @GetMapping("/api/greeting")
    Greeting greet(@RequestParam(defaultValue = "world") String name) {
        return new Greeting("hello, " + name);
    }
}
