package io.github.jvmfit.inventory;

import java.sql.SQLException;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.TransactionException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/** Every failure is a short JSON answer, never a stack trace. */
@RestControllerAdvice
class ErrorAnswers {
    private static final Logger log = LoggerFactory.getLogger(ErrorAnswers.class);

    @ExceptionHandler(BadRequestException.class)
    ResponseEntity<Map<String, Object>> badRequest(BadRequestException e) {
        return answer(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    @ExceptionHandler({MethodArgumentTypeMismatchException.class, HttpMessageNotReadableException.class})
    ResponseEntity<Map<String, Object>> unreadable(Exception e) {
        return answer(HttpStatus.BAD_REQUEST, "malformed request: " + firstLine(e.getMessage()));
    }

    @ExceptionHandler(NotFoundException.class)
    ResponseEntity<Map<String, Object>> notFound(NotFoundException e) {
        return answer(HttpStatus.NOT_FOUND, e.getMessage());
    }

    @ExceptionHandler(ConflictException.class)
    ResponseEntity<Map<String, Object>> conflict(ConflictException e) {
        return answer(HttpStatus.CONFLICT, e.getMessage());
    }

    /**
     * No connection (database down, or the pool exhausted past its timeout) and
     * transient failures mean "try again later": 503, the status load
     * balancers and jvmfit's SLO both read as unavailability.
     */
    @ExceptionHandler({DataAccessResourceFailureException.class, TransientDataAccessException.class})
    ResponseEntity<Map<String, Object>> unavailable(DataAccessException e) {
        log.warn("database unavailable: {}", firstLine(e.getMostSpecificCause().getMessage()));
        return answer(HttpStatus.SERVICE_UNAVAILABLE, "database unavailable: " + firstLine(e.getMostSpecificCause().getMessage()));
    }

    /**
     * A transaction that cannot begin, or whose rollback fails because the
     * connection died under it, has no database either.
     */
    @ExceptionHandler(TransactionException.class)
    ResponseEntity<Map<String, Object>> noTransaction(TransactionException e) {
        log.warn("database unavailable: {}", firstLine(e.getMostSpecificCause().getMessage()));
        return answer(HttpStatus.SERVICE_UNAVAILABLE, "database unavailable: " + firstLine(e.getMostSpecificCause().getMessage()));
    }

    @ExceptionHandler(DataAccessException.class)
    ResponseEntity<Map<String, Object>> database(DataAccessException e) {
        if (connectionLost(e)) {
            return unavailable(e);
        }
        log.error("database error", e);
        return answer(HttpStatus.INTERNAL_SERVER_ERROR, "database error: " + firstLine(e.getMostSpecificCause().getMessage()));
    }

    /** SQLSTATE class 08 (connection exception) and 57P (server shutting down). */
    private static boolean connectionLost(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
                return true;
            }
        }
        return false;
    }

    private static ResponseEntity<Map<String, Object>> answer(HttpStatus status, String message) {
        return ResponseEntity.status(status).body(Map.of("status", status.value(), "error", message));
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
