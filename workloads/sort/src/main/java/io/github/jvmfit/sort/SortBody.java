package io.github.jvmfit.sort;

import java.util.List;

/** Seed 003's JSON shape, used both ways: {"intList":[{"list":[3,1,2]}, ...]}. */
public record SortBody(List<IntList> intList) {

    public record IntList(List<Integer> list) {
    }
}
