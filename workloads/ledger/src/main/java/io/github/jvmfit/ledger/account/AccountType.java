package io.github.jvmfit.ledger.account;

public enum AccountType { CHECKING, SAVINGS, ASSET, REVENUE }
