package io.github.jvmfit.greet.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** GET /api/greeting?name=N answers {"message":"hello, N"}; GET /actuator/health is readiness. */
@SpringBootApplication
public class GreetApplication {
    public static void main(String[] args) {
        SpringApplication.run(GreetApplication.class, args);
    }
}
