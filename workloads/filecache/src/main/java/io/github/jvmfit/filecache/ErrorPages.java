package io.github.jvmfit.filecache;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.multipart.MaxUploadSizeExceededException;
import org.springframework.web.multipart.MultipartException;

/** Maps every refusal to one HTML line saying what is wrong, with the right status. */
@RestControllerAdvice
class ErrorPages {

    private final long maxUploadBytes;

    ErrorPages(FileCacheProperties props) {
        this.maxUploadBytes = props.maxUploadSize().toBytes();
    }

    @ExceptionHandler(BadRequestException.class)
    ResponseEntity<String> badRequest(BadRequestException e) {
        return error(HttpStatus.BAD_REQUEST, e.getMessage());
    }

    @ExceptionHandler(NotFoundException.class)
    ResponseEntity<String> notFound(NotFoundException e) {
        return error(HttpStatus.NOT_FOUND, e.getMessage());
    }

    @ExceptionHandler(CacheFullException.class)
    ResponseEntity<String> full(CacheFullException e) {
        return error(HttpStatus.INSUFFICIENT_STORAGE, e.getMessage());
    }

    // Must precede the generic MultipartException handler: it is a subclass.
    @ExceptionHandler(MaxUploadSizeExceededException.class)
    ResponseEntity<String> tooLarge(MaxUploadSizeExceededException e) {
        return error(HttpStatus.PAYLOAD_TOO_LARGE,
                "upload larger than " + maxUploadBytes + " bytes; send a smaller file or raise --filecache.max-upload-size");
    }

    @ExceptionHandler(MultipartException.class)
    ResponseEntity<String> malformed(MultipartException e) {
        return error(HttpStatus.BAD_REQUEST, "malformed multipart body: send multipart/form-data with a field named 'file'");
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<String> mediaType(HttpMediaTypeNotSupportedException e) {
        return error(HttpStatus.BAD_REQUEST, "expected a multipart/form-data body with a field named 'file'");
    }

    private static ResponseEntity<String> error(HttpStatus status, String text) {
        return ResponseEntity.status(status).contentType(HtmlPages.TEXT_HTML).body(HtmlPages.error(status.value(), text));
    }
}
