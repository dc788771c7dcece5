package io.github.jvmfit.greet.springctx;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * GET /greet/api/greeting?name=N answers {"message":"hello, N"}; readiness is
 * GET /manage/health on the management port (application.yml).
 */
@SpringBootApplication
public class GreetApplication {
    public static void main(String[] args) {
        SpringApplication.run(GreetApplication.class, args);
    }
}
