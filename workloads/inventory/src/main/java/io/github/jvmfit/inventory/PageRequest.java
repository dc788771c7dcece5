package io.github.jvmfit.inventory;

/** A validated page of a list: page is 0-based. */
record PageRequest(int page, int size) {
    static PageRequest of(Integer page, Integer size, InventoryProperties props) {
        int p = page == null ? 0 : page;
        int s = size == null ? props.pageSize() : size;
        if (p < 0) {
            throw new BadRequestException("page must be 0 or more, got " + p);
        }
        if (s < 1 || s > props.maxPageSize()) {
            throw new BadRequestException("size must be 1.." + props.maxPageSize() + ", got " + s);
        }
        return new PageRequest(p, s);
    }

    long offset() {
        return (long) page * size;
    }
}
