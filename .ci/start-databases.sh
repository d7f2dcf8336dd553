#!/usr/bin/env bash
# Starts PostgreSQL and MariaDB on loopback and gives each a superuser aerie/aerie for the panel's tests.
# Idempotent: safe to run when they are already up.
set -euo pipefail

pg_version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$pg_version main"; then pg_createcluster "$pg_version" main; fi
pg_ctlcluster "$pg_version" main start 2>/dev/null || true
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 && break; sleep 0.5; done
su postgres -c "psql -q -v ON_ERROR_STOP=1" <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'aerie') THEN
    CREATE ROLE aerie LOGIN SUPERUSER PASSWORD 'aerie';
  END IF;
END $$;
SQL

if ! mysqladmin ping --silent 2>/dev/null; then
  service mariadb start >/dev/null 2>&1 || (mysqld_safe >/dev/null 2>&1 &)
  for _ in $(seq 1 60); do mysqladmin ping --silent 2>/dev/null && break; sleep 0.5; done
fi
mysql -uroot <<'SQL'
CREATE USER IF NOT EXISTS 'aerie'@'127.0.0.1' IDENTIFIED BY 'aerie';
CREATE USER IF NOT EXISTS 'aerie'@'localhost' IDENTIFIED BY 'aerie';
GRANT ALL PRIVILEGES ON *.* TO 'aerie'@'127.0.0.1' WITH GRANT OPTION;
GRANT ALL PRIVILEGES ON *.* TO 'aerie'@'localhost' WITH GRANT OPTION;
FLUSH PRIVILEGES;
SQL
echo "PostgreSQL $pg_version and MariaDB are up"
