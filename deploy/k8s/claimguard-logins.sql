-- ClaimGuard's two logins, made by a superuser (or a login with CREATEROLE) in the audit database, once; running it
-- again brings the logins back to what it says (and their passwords to the ones given):
--
--   the owner (spring.flyway.user) runs the migrations and owns schema claimguard. It needs neither SUPERUSER nor
--     CREATEROLE: the two roles the migrations would create are made here, and the migrations find them;
--   the runtime login (spring.datasource.username) is what the service connects as: a member of claimguard_writer
--     (adds and reads audit rows) and claimguard_reader (the explorer's read-only role) and of nothing else, so whoever
--     holds one of its connections can never change or remove an audit row. The service checks that at every start.
--
-- Names and passwords come from the environment (psql's \getenv, psql 15 or later); nothing secret is in this file:
--   CLAIMGUARD_OWNER_LOGIN (default claimguard_owner), CLAIMGUARD_OWNER_PASSWORD (required),
--   CLAIMGUARD_RUNTIME_LOGIN (default claimguard_runtime), CLAIMGUARD_RUNTIME_PASSWORD (required).
-- The passwords travel to the server inside ALTER ROLE: run it where statements are not logged (the default).
--
--   psql -v ON_ERROR_STOP=1 -h HOST -U postgres -d claimguard -f deploy/k8s/claimguard-logins.sql
--
-- docker-compose.yml runs it at the database's first start (docker-entrypoint-initdb.d); deploy/k8s runs it as the Job
-- claimguard-logins; RuntimeLoginStartIT runs it before starting the service with these two logins. It lives beside the
-- Kubernetes manifests because kustomize reads no file outside their folder.

\set ON_ERROR_STOP on
\getenv owner_login CLAIMGUARD_OWNER_LOGIN
\getenv owner_password CLAIMGUARD_OWNER_PASSWORD
\getenv runtime_login CLAIMGUARD_RUNTIME_LOGIN
\getenv runtime_password CLAIMGUARD_RUNTIME_PASSWORD
\if :{?owner_login}
\else
    \set owner_login claimguard_owner
\endif
\if :{?runtime_login}
\else
    \set runtime_login claimguard_runtime
\endif
\if :{?owner_password}
\else
    DO $$ BEGIN RAISE EXCEPTION 'CLAIMGUARD_OWNER_PASSWORD is not set'; END $$;
\endif
\if :{?runtime_password}
\else
    DO $$ BEGIN RAISE EXCEPTION 'CLAIMGUARD_RUNTIME_PASSWORD is not set'; END $$;
\endif

SELECT pg_catalog.current_database() AS database,
       NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'claimguard_reader') AS make_reader,
       NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'claimguard_writer') AS make_writer,
       NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = :'owner_login') AS make_owner,
       NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = :'runtime_login') AS make_runtime
\gset

-- The migrations' roles (V2, V3), as the migrations would make them.
\if :make_reader
    CREATE ROLE claimguard_reader NOLOGIN;
\endif
\if :make_writer
    CREATE ROLE claimguard_writer NOLOGIN;
\endif

\if :make_owner
    CREATE ROLE :"owner_login" LOGIN;
\endif
ALTER ROLE :"owner_login" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS
    PASSWORD :'owner_password';
-- Flyway creates schema claimguard as the owner
GRANT CONNECT, CREATE ON DATABASE :"database" TO :"owner_login";

\if :make_runtime
    CREATE ROLE :"runtime_login" LOGIN;
\endif
ALTER ROLE :"runtime_login" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT
    PASSWORD :'runtime_password';
GRANT CONNECT ON DATABASE :"database" TO :"runtime_login";
GRANT claimguard_writer, claimguard_reader TO :"runtime_login";
