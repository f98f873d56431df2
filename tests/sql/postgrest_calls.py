"""PostgREST's requests, as the SQL tests make them: one transaction of the `authenticator`
role a call (switching to `anon` or `authenticated` with `request.jwt.claims` set locally, as
PostgREST does), `admin` for setting up users and reading the truth, and the calls Sesame's
Supabase username directory makes (tests/sql/test_providers_sql.py uses them)."""

import json
import os
import re
import subprocess
import uuid

SOCKET_DIR = os.environ["SESAME_PG_SOCKET_DIR"]
DENIED = "42501"  # insufficient_privilege: PostgREST's 401/403
TAKEN = "23505"  # unique_violation: PostgREST's 409


class SQLError(Exception):
    def __init__(self, sqlstate):
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def psql(user, script):
    """Runs SCRIPT as USER; returns the rows printed (fields split on '|')."""
    result = subprocess.run(
        ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
         "-h", SOCKET_DIR, "-d", "postgres", "-U", user, "-f", "-"],
        input="\\set VERBOSITY sqlstate\n" + script,
        capture_output=True, text=True, timeout=30, check=False)
    if result.returncode == 3:
        match = re.search(r"ERROR:\s+([0-9A-Z]{5})", result.stderr)
        if match:
            raise SQLError(match.group(1))
    if result.returncode != 0:
        raise RuntimeError(f"psql failed ({result.returncode}): {result.stderr}")
    return [line.split("|") for line in result.stdout.splitlines() if line]


def lit(value):
    return "null" if value is None else "'" + str(value).replace("'", "''") + "'"


def request(role, claims, statement):
    return psql("authenticator", (
        "begin;\n"
        f"set local role {role};\n"
        f"set local request.jwt.claims = {lit(json.dumps(claims))};\n"
        f"{statement};\n"
        "commit;\n"))


def as_user(uid, statement, anonymous=False):
    claims = {"sub": uid, "role": "authenticated", "aud": "authenticated", "is_anonymous": anonymous}
    return request("authenticated", claims, statement)


def as_anon(statement):
    return request("anon", {"role": "anon"}, statement)


def admin(statement):
    return psql("supabase_admin", statement + ";\n")


def new_user(anonymous=False):
    uid = str(uuid.uuid4())
    email = None if anonymous else f"{uid[:8]}@example.com"
    admin(f"insert into auth.users (id, email, is_anonymous) values ({lit(uid)}, {lit(email)}, {anonymous})")
    return uid


def new_key():
    return "name-" + uuid.uuid4().hex[:12]


# The statements PostgREST makes of the adapter's requests (SupabaseUsernameDirectory).
def claim(key, uid):  # POST /usernames {key, uid}
    return f"insert into public.usernames (key, uid) values ({lit(key)}, {lit(uid)})"


def release(key, uid):  # DELETE /usernames?key=eq.K&uid=eq.U
    return (f"with gone as (delete from public.usernames where key = {lit(key)} and uid = {lit(uid)}"
            " returning 1) select count(*) from gone")


def owner_lookup(key):  # POST /rpc/username_owner {"name_key": K} (a scalar: the uid or null)
    return f"select public.username_owner({lit(key)})"


def details_lookup(uid):  # POST /rpc/username_details_of {"user_id": U}
    return f"select username, coalesce(email, '') from public.username_details_of({lit(uid)})"


def table_owner(key):  # GET /usernames?key=eq.K&select=uid (a table read, under the policies)
    return f"select uid from public.usernames where key = {lit(key)}"


def table_details(uid):  # GET /username_details?uid=eq.U&select=username,email
    return f"select username, coalesce(email, '') from public.username_details where uid = {lit(uid)}"


def list_all(table):  # GET /<table>?select=* : what a holder of the anon key could dump
    return f"select count(*) from public.{table}"


def set_details(uid, username, email):  # POST /username_details, resolution=merge-duplicates
    return ("insert into public.username_details (uid, username, email) values "
            f"({lit(uid)}, {lit(username)}, {lit(email)}) on conflict (uid) do update set "
            "username = excluded.username, email = excluded.email")


def owner(key):
    rows = admin(table_owner(key))
    return rows[0][0] if rows else None


def details(uid):
    rows = admin(table_details(uid))
    return tuple(rows[0]) if rows else None


def user_exists(uid):
    return admin(f"select count(*) from auth.users where id = {lit(uid)}") == [["1"]]
