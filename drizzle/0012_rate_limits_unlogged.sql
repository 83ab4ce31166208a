-- Rate-limit counters are written by every API request. Unlogged: no WAL, so a request's count does
-- not wait for a WAL flush at commit. After a crash of PostgreSQL the table is emptied (every window
-- starts again), which costs a client at most one extra window; nothing else is kept here.
ALTER TABLE "rate_limit_counters" SET UNLOGGED;
