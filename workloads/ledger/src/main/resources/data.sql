-- The seed, generated in the database at every start. Ids are chosen so a
-- load scenario can name them by string alone (it has no arithmetic):
--   customers 1..1999, each with a checking account of the same id and a
--   savings account 100000 + id; the bank's revenue (900001) and cash
--   (900002) accounts, the highest ids, so locking in id order takes them last;
--   an opening deposit of 1,000,000.00 from cash to every customer account
--   (entries 1..3998), 10,000 transfers between checking accounts over the
--   last 100 days (entries 10001..20000), and 3,000 invoices (invoice N of
--   customer N for N up to 1999; a third of those above 1999 paid).
-- Balances are the sums of the postings, so the ledger balances from the start.
INSERT INTO customer (id, name, email, created_at)
SELECT X, 'Customer ' || X, 'customer' || X || '@example.com', TIMESTAMP WITH TIME ZONE '2026-01-01 00:00:00+00'
FROM SYSTEM_RANGE(1, 1999);

INSERT INTO account (id, customer_id, code, type, currency, balance_cents, version) VALUES
    (900001, NULL, 'REVENUE', 'REVENUE', 'EUR', 0, 0),
    (900002, NULL, 'CASH', 'ASSET', 'EUR', 0, 0);
INSERT INTO account (id, customer_id, code, type, currency, balance_cents, version)
SELECT X, X, 'CHK-' || X, 'CHECKING', 'EUR', 0, 0 FROM SYSTEM_RANGE(1, 1999);
INSERT INTO account (id, customer_id, code, type, currency, balance_cents, version)
SELECT 100000 + X, X, 'SAV-' || X, 'SAVINGS', 'EUR', 0, 0 FROM SYSTEM_RANGE(1, 1999);

INSERT INTO journal_entry (id, reference, memo, posted_at)
SELECT X, 'OPEN-' || X, 'opening deposit', TIMESTAMP WITH TIME ZONE '2026-07-01 00:00:00+00'
FROM SYSTEM_RANGE(1, 3998);
INSERT INTO posting (entry_id, account_id, amount_cents)
SELECT X, CASE WHEN X <= 1999 THEN X ELSE 100000 + X - 1999 END, 100000000 FROM SYSTEM_RANGE(1, 3998);
INSERT INTO posting (entry_id, account_id, amount_cents) SELECT X, 900002, -100000000 FROM SYSTEM_RANGE(1, 3998);

INSERT INTO journal_entry (id, reference, memo, posted_at)
SELECT 10000 + X, 'TRF-' || X, 'transfer', DATEADD('MINUTE', -MOD(X * 37, 144000), TIMESTAMP WITH TIME ZONE '2026-11-01 00:00:00+00')
FROM SYSTEM_RANGE(1, 10000);
INSERT INTO posting (entry_id, account_id, amount_cents)
SELECT 10000 + X, 1 + MOD(X, 1999), -(MOD(X, 9000) + 100) FROM SYSTEM_RANGE(1, 10000);
INSERT INTO posting (entry_id, account_id, amount_cents)
SELECT 10000 + X, 1 + MOD(X * 7 + 1, 1999), MOD(X, 9000) + 100 FROM SYSTEM_RANGE(1, 10000);

UPDATE account a SET balance_cents = (SELECT COALESCE(SUM(p.amount_cents), 0) FROM posting p WHERE p.account_id = a.id);

INSERT INTO invoice (id, customer_id, amount_cents, paid_cents, status, issued_at, due_at, version)
SELECT X, 1 + MOD(X - 1, 1999), 1000 + MOD(X * 13, 50000),
       CASE WHEN X > 1999 AND MOD(X, 3) = 0 THEN 1000 + MOD(X * 13, 50000) ELSE 0 END,
       CASE WHEN X > 1999 AND MOD(X, 3) = 0 THEN 'PAID' ELSE 'OPEN' END,
       DATEADD('DAY', -MOD(X, 90), TIMESTAMP WITH TIME ZONE '2026-11-01 00:00:00+00'),
       DATEADD('DAY', 30 - MOD(X, 90), TIMESTAMP WITH TIME ZONE '2026-11-01 00:00:00+00'), 0
FROM SYSTEM_RANGE(1, 3000);

ALTER TABLE customer ALTER COLUMN id RESTART WITH 1000001;
ALTER TABLE account ALTER COLUMN id RESTART WITH 1000001;
ALTER TABLE journal_entry ALTER COLUMN id RESTART WITH 1000001;
ALTER TABLE invoice ALTER COLUMN id RESTART WITH 1000001;
