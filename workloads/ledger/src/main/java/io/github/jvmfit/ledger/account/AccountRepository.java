package io.github.jvmfit.ledger.account;

import java.util.List;
import java.util.Optional;

import jakarta.persistence.LockModeType;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface AccountRepository extends JpaRepository<Account, Long> {
    List<Account> findByCustomerIdOrderById(long customerId);

    /** The account locked for the transaction's write (SELECT ... FOR UPDATE). */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select a from Account a where a.id = :id")
    Optional<Account> lockById(@Param("id") long id);

    /** Balances by account type: the trial balance's rows. */
    @Query("select a.type as type, count(a) as accounts, sum(a.balanceCents) as balanceCents from Account a group by a.type order by a.type")
    List<TypeTotal> totalsByType();

    interface TypeTotal {
        AccountType getType();
        long getAccounts();
        long getBalanceCents();
    }
}
