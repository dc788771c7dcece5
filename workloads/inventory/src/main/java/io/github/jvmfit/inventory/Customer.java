package io.github.jvmfit.inventory;

record Customer(long id, String name, String email, String city) {}
