"""The Supabase SQL of docs/providers.md, checked on PostgreSQL as PostgREST would run it.

tests/sql/run.sh starts the cluster, applies the auth stand-in and the page's SQL, and runs
these with SESAME_PG_SOCKET_DIR set. Each API call is one transaction of the `authenticator`
role that switches to `anon` or `authenticated` and sets `request.jwt.claims` locally, as
PostgREST does for a request; `admin` (the bootstrap superuser) sets up users and reads the
truth. Every test makes its own users and names, so the tests are independent.
"""

import os
import unittest

import extract_sql
from postgrest_calls import (
    DENIED, TAKEN, SQLError, psql, lit, as_user, as_anon, admin, new_user, new_key, claim, release,
    owner_lookup, details_lookup, table_owner, table_details, list_all, set_details, owner, details,
    user_exists,
)


class SQLTestCase(unittest.TestCase):
    def assertRefused(self, sqlstate, call, *args, **kwargs):
        with self.assertRaises(SQLError) as refused:
            call(*args, **kwargs)
        self.assertEqual(refused.exception.sqlstate, sqlstate)


class UsernameClaimTests(SQLTestCase):
    def test_a_user_claims_a_free_name(self):
        a, key = new_user(), new_key()
        as_user(a, claim(key, a))
        self.assertEqual(owner(key), a)

    def test_a_guest_claims_a_name_with_its_own_uid(self):
        guest, key = new_user(anonymous=True), new_key()
        as_user(guest, claim(key, guest), anonymous=True)
        self.assertEqual(owner(key), guest)

    def test_a_taken_name_is_23505_and_keeps_its_holder(self):
        a, b, key = new_user(), new_user(), new_key()
        as_user(a, claim(key, a))
        self.assertRefused(TAKEN, as_user, b, claim(key, b))
        self.assertEqual(owner(key), a)

    def test_a_name_cannot_be_claimed_for_another_user(self):
        a, b = new_user(), new_user()
        free, taken = new_key(), new_key()
        as_user(a, claim(taken, a))
        self.assertRefused(DENIED, as_user, b, claim(free, a))
        self.assertRefused(DENIED, as_user, b, claim(taken, a))
        self.assertIsNone(owner(free))
        self.assertEqual(owner(taken), a)

    def test_anon_cannot_claim(self):
        a, key = new_user(), new_key()
        self.assertRefused(DENIED, as_anon, claim(key, a))
        self.assertIsNone(owner(key))

    def test_nobody_can_reassign_a_held_name(self):
        a, b, key = new_user(), new_user(), new_key()
        as_user(a, claim(key, a))
        take = f"update public.usernames set uid = {lit(b)} where key = {lit(key)} returning key"
        self.assertEqual(as_user(b, take), [])
        self.assertEqual(as_user(a, take), [])
        self.assertEqual(owner(key), a)

    def test_only_the_holder_frees_a_name(self):
        a, b, key = new_user(), new_user(), new_key()
        as_user(a, claim(key, a))
        self.assertEqual(as_user(b, release(key, a)), [["0"]])
        self.assertEqual(as_user(b, f"delete from public.usernames where key = {lit(key)} returning key"), [])
        self.assertEqual(as_anon(release(key, a)), [["0"]])
        self.assertEqual(owner(key), a)
        self.assertEqual(as_user(a, release(key, a)), [["1"]])
        self.assertIsNone(owner(key))
        as_user(b, claim(key, b))
        self.assertEqual(owner(key), b)


class UsernameReadTests(SQLTestCase):
    def test_anyone_looks_up_who_holds_a_known_name(self):
        a, b, key = new_user(), new_user(), new_key()
        as_user(a, claim(key, a))
        self.assertEqual(as_anon(owner_lookup(key)), [[a]])
        self.assertEqual(as_user(b, owner_lookup(key)), [[a]])
        self.assertEqual(as_anon(owner_lookup(new_key())), [])  # SQL null (PostgREST: null) prints no row

    def test_anyone_looks_up_a_known_users_name_and_email(self):
        a, b = new_user(), new_user()
        as_user(a, set_details(a, "NASA Fan", "a@example.com"))
        self.assertEqual(as_anon(details_lookup(a)), [["NASA Fan", "a@example.com"]])
        self.assertEqual(as_user(b, details_lookup(a)), [["NASA Fan", "a@example.com"]])
        self.assertEqual(as_anon(details_lookup(new_user())), [])

    def test_nobody_lists_the_directory(self):
        a, b, key = new_user(), new_user(), new_key()
        as_user(a, claim(key, a))
        as_user(a, set_details(a, "Alice", "a@example.com"))
        for table in ("usernames", "username_details"):
            self.assertEqual(as_anon(list_all(table)), [["0"]])
            self.assertEqual(as_user(b, list_all(table)), [["0"]])
            self.assertEqual(as_user(a, list_all(table)), [["1"]])
        self.assertEqual(as_anon(table_details(a)), [])
        self.assertEqual(as_user(b, table_owner(key)), [])
        self.assertEqual(as_user(a, table_owner(key)), [[a]])

    def test_the_lookups_may_be_run_by_anon_and_authenticated_only(self):
        for function in ("public.username_owner(text)", "public.username_details_of(uuid)"):
            rows = admin(f"select r, has_function_privilege(r, '{function}', 'execute') "
                         "from unnest(array['anon', 'authenticated', 'authenticator']) as r order by r")
            self.assertEqual(rows, [["anon", "t"], ["authenticated", "t"], ["authenticator", "f"]])

    def test_the_read_block_upgrades_a_project_with_the_earlier_public_policies(self):
        a, key = new_user(), new_key()
        as_user(a, claim(key, a))
        as_user(a, set_details(a, "Alice", "a@example.com"))
        # What the earlier page had projects run: anyone could list both tables.
        admin('drop policy "read own names" on public.usernames; '
              'drop policy "read own details" on public.username_details; '
              'create policy "names are public" on public.usernames for select using (true); '
              'create policy "details are public" on public.username_details for select using (true)')
        self.assertNotEqual(as_anon(list_all("username_details")), [["0"]])
        psql("postgres", "begin;\n" + read_block() + "\ncommit;\n")
        self.assertEqual(as_anon(list_all("username_details")), [["0"]])
        self.assertEqual(as_anon(details_lookup(a)), [["Alice", "a@example.com"]])
        self.assertEqual(as_anon(owner_lookup(key)), [[a]])


def read_block():
    """The second ```sql block of docs/providers.md: the read policies and lookup functions."""
    page = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "providers.md")
    with open(page, encoding="utf-8") as handle:
        blocks = [text for _, text in extract_sql.sql_blocks(handle.readlines())]
    return next(text for text in blocks if "username_owner" in text)


class UsernameDetailsTests(SQLTestCase):
    def test_a_user_writes_and_rewrites_own_details(self):
        a = new_user()
        as_user(a, set_details(a, "Alice", "a@example.com"))
        self.assertEqual(details(a), ("Alice", "a@example.com"))
        as_user(a, set_details(a, "ALICE", None))  # deleteAccount rewrites it without the email
        self.assertEqual(details(a), ("ALICE", ""))

    def test_a_user_cannot_write_anothers_details(self):
        a, b = new_user(), new_user()
        self.assertRefused(DENIED, as_user, b, set_details(a, "Mallory", "b@example.com"))
        self.assertIsNone(details(a))
        as_user(a, set_details(a, "Alice", "a@example.com"))
        self.assertRefused(DENIED, as_user, b, set_details(a, "Mallory", "b@example.com"))
        overwrite = f"update public.username_details set email = 'b@example.com' where uid = {lit(a)} returning uid"
        self.assertEqual(as_user(b, overwrite), [])
        self.assertEqual(details(a), ("Alice", "a@example.com"))

    def test_a_user_cannot_move_own_details_to_another_uid(self):
        a, b = new_user(), new_user()
        as_user(a, set_details(a, "Alice", "a@example.com"))
        move = f"update public.username_details set uid = {lit(b)} where uid = {lit(a)}"
        self.assertRefused(DENIED, as_user, a, move)
        self.assertEqual(details(a), ("Alice", "a@example.com"))
        self.assertIsNone(details(b))

    def test_anon_cannot_write_details(self):
        a = new_user()
        self.assertRefused(DENIED, as_anon, set_details(a, "Alice", "a@example.com"))
        self.assertIsNone(details(a))


class DeleteUserTests(SQLTestCase):
    def test_delete_user_deletes_only_the_caller_and_their_names(self):
        a, b = new_user(), new_user()
        a_key, b_key = new_key(), new_key()
        for uid, key in ((a, a_key), (b, b_key)):
            as_user(uid, claim(key, uid))
            as_user(uid, set_details(uid, key, f"{key}@example.com"))
        as_user(a, "select public.delete_user()")
        self.assertFalse(user_exists(a))
        self.assertIsNone(owner(a_key))
        self.assertIsNone(details(a))
        self.assertTrue(user_exists(b))
        self.assertEqual(owner(b_key), b)
        self.assertEqual(details(b), (b_key, f"{b_key}@example.com"))

    def test_anon_cannot_call_delete_user(self):
        a, key = new_user(), new_key()
        as_user(a, claim(key, a))
        self.assertRefused(DENIED, as_anon, "select public.delete_user()")
        self.assertTrue(user_exists(a))
        self.assertEqual(owner(key), a)

    def test_only_authenticated_users_may_execute_delete_user(self):
        rows = admin("select r, has_function_privilege(r, 'public.delete_user()', 'execute') "
                     "from unnest(array['anon', 'authenticated', 'authenticator']) as r order by r")
        self.assertEqual(rows, [["anon", "f"], ["authenticated", "t"], ["authenticator", "f"]])


if __name__ == "__main__":
    unittest.main()
