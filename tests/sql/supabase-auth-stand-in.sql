-- A minimal stand-in for what a hosted Supabase database has before a project runs any SQL:
-- the roles, the `auth` schema with `auth.users`, `auth.uid()`, `auth.role()` and `auth.jwt()`,
-- and the grants. Run by the cluster's bootstrap superuser (`supabase_admin`, as on Supabase).
-- Only what the SQL of docs/providers.md touches is here; auth.users has a few of its columns.

-- Roles. `postgres` is what the SQL editor and migrations run as: not a superuser on
-- Supabase, but CREATEROLE, CREATEDB, REPLICATION and BYPASSRLS, and a member of the auth
-- schema's owner. PostgREST logs in as `authenticator` and switches to `anon` (no JWT or the
-- anon key), `authenticated` (a user's access token) or `service_role` (the service key).
create role postgres login createrole createdb replication bypassrls;
create role supabase_auth_admin login noinherit createrole noreplication;
create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;
create role authenticator login noinherit;
grant anon, authenticated, service_role to authenticator;
grant supabase_auth_admin to postgres;

-- public: every role may use it; whatever `postgres` creates there is granted to the API
-- roles by default (tables, functions, sequences), so row-level security and explicit
-- revokes are what protect data.
grant usage on schema public to postgres, anon, authenticated, service_role;
grant create on schema public to postgres;
alter default privileges for role postgres in schema public
  grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  grant all on functions to anon, authenticated, service_role;
alter default privileges for role postgres in schema public
  grant all on sequences to anon, authenticated, service_role;

-- auth: owned by the auth server's role. The API roles may use the schema (for auth.uid()
-- in policies) but get no privilege on its tables; `postgres` gets all of them.
create schema auth authorization supabase_auth_admin;
grant usage on schema auth to postgres, anon, authenticated, service_role;

set role supabase_auth_admin;

create table auth.users (
  id uuid primary key,
  email text,
  is_anonymous boolean not null default false,
  created_at timestamptz not null default now()
);

-- The request's JWT claims, as PostgREST sets them for each request (`request.jwt.claims`,
-- a JSON object, local to the transaction); `request.jwt.claim.sub` is the older
-- one-setting-per-claim form, still read first. An unset or empty setting is no claims.
create function auth.jwt() returns jsonb
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

create function auth.uid() returns uuid
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub'
  )::uuid
$$;

create function auth.role() returns text
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role'
  )::text
$$;

reset role;

grant all on all tables in schema auth to postgres;
grant execute on all functions in schema auth to postgres, anon, authenticated, service_role;
