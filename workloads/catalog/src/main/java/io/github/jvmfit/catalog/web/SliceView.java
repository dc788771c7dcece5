package io.github.jvmfit.catalog.web;

import java.util.List;

import org.springframework.data.domain.Slice;

/** A slice as JSON: the rows, where they are, and whether there are more (no total). */
public record SliceView<T>(List<T> content, int number, int size, boolean hasNext) {
    public static <T> SliceView<T> of(Slice<T> s) {
        return new SliceView<>(s.getContent(), s.getNumber(), s.getSize(), s.hasNext());
    }
}
