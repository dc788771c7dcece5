package io.github.jvmfit.catalog.web;

import java.util.Set;

import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;

/** Sorting only by the properties a resource names, so a client cannot sort by an unindexed or missing column. */
public final class PageParams {
    private PageParams() {}

    public static Pageable checked(Pageable page, Set<String> sortable) {
        for (Sort.Order o : page.getSort()) {
            if (!sortable.contains(o.getProperty())) {
                throw new BadSortException(o.getProperty(), sortable);
            }
        }
        return page;
    }

    /** 400: sorting by a property the resource does not offer. */
    public static class BadSortException extends RuntimeException {
        BadSortException(String property, Set<String> sortable) {
            super("cannot sort by '" + property + "'; sortable: " + String.join(", ", sortable.stream().sorted().toList()));
        }
    }
}
