package io.github.jvmfit.sort;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class SortController {

    private final SortService service;

    public SortController(SortService service) {
        this.service = service;
    }

    /** Seed 003's "do nothing" URL: the cost of the framework alone. */
    @GetMapping("/status")
    public ResponseEntity<Void> status() {
        return ResponseEntity.ok().build();
    }

    @PostMapping(path = "/sort", consumes = MediaType.APPLICATION_JSON_VALUE, produces = MediaType.APPLICATION_JSON_VALUE)
    public SortBody sort(@RequestBody SortBody body) {
        if (body == null || body.intList() == null) {
            throw new BadBodyException("body must be {\"intList\":[{\"list\":[...]}, ...]}");
        }
        for (SortBody.IntList l : body.intList()) {
            if (l == null || l.list() == null || l.list().contains(null)) {
                throw new BadBodyException("every intList entry needs a \"list\" of integers, without nulls");
            }
        }
        return service.sort(body);
    }

    @ExceptionHandler(PoolSaturatedException.class)
    ResponseEntity<String> saturated(PoolSaturatedException e) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header("Retry-After", "1")
                .contentType(MediaType.TEXT_PLAIN).body(e.getMessage() + "\n");
    }

    @ExceptionHandler(BadBodyException.class)
    ResponseEntity<String> badBody(BadBodyException e) {
        return ResponseEntity.badRequest().contentType(MediaType.TEXT_PLAIN).body(e.getMessage() + "\n");
    }

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<String> unreadable(HttpMessageNotReadableException e) {
        return ResponseEntity.badRequest().contentType(MediaType.TEXT_PLAIN)
                .body("body is not valid JSON of the form {\"intList\":[{\"list\":[1,2,3]}]}\n");
    }

    static class BadBodyException extends RuntimeException {
        BadBodyException(String message) {
            super(message);
        }
    }
}
