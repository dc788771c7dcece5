package io.github.jvmfit.inventory;

import java.util.List;

/** One page of a list answer; total lets a client know how far to page. */
record Page<T>(int page, int size, long total, List<T> items) {}
