"""The rows a SQL text writes (`limen.normalize.sql`): what the row rules of every door read."""

from __future__ import annotations

from limen.normalize.sql import RowWrite, row_writes, statements


def test_update_assignments_keep_literals_and_expressions_apart() -> None:
    writes = row_writes(
        "UPDATE \"Accounts\" a SET role_id = (SELECT id FROM roles WHERE name = 'Admin, root'), "
        "note = 'it''s', seen = now() WHERE id = 4"
    )
    assert writes == [
        RowWrite("accounts", "role_id", "(SELECT id FROM roles WHERE name = 'Admin, root')", False),
        RowWrite("accounts", "note", "it's", True),
        RowWrite("accounts", "seen", "now()", False),
    ]


def test_settings_table_row_is_written_under_the_setting_it_names() -> None:
    writes = row_writes("UPDATE wp_usermeta SET meta_value = 'a:1:{}' WHERE meta_key = 'wp_capabilities'")
    assert [(w.column, w.value) for w in writes] == [("wp_capabilities", "a:1:{}")]
    named = row_writes("UPDATE mdl_config SET value = '0' WHERE name IN ('forcelogin', 'guestloginbutton')")
    assert [w.column for w in named] == ["forcelogin", "guestloginbutton"]


def test_insert_values_and_select_map_columns_by_position() -> None:
    values = row_writes("INSERT INTO api_keys (user_id, key) VALUES (1, 'k1'), (2, 'k2')")
    assert [(w.column, w.value, w.literal, w.inserted) for w in values] == [
        ("user_id", "1", True, True),
        ("key", "k1", True, True),
    ]
    selected = row_writes(
        "INSERT INTO user_groups (user_id, group_id) SELECT 7, id FROM groups WHERE name='ops'"
    )
    assert selected[1].column == "group_id" and "name='ops'" in selected[1].value


def test_comments_and_quoted_semicolons_do_not_split_or_hide_statements() -> None:
    text = (
        "-- UPDATE x SET a = 1;\nUPDATE t SET v = 'a;b' /* ; */ WHERE k = 1; # x\nDELETE FROM t WHERE k = 2"
    )
    assert statements(text) == ["UPDATE t SET v = 'a;b'   WHERE k = 1", "DELETE FROM t WHERE k = 2"]
    assert row_writes(text) == [RowWrite("t", "v", "a;b", True)]


def test_reads_and_unreadable_text_write_nothing() -> None:
    assert row_writes("SELECT * FROM users WHERE role = 'admin'") == []
    assert row_writes("UPDATE (((") == []
    assert row_writes("update " * 50_000) == []


def test_a_settings_tables_new_row_is_the_setting_it_names() -> None:
    from limen.normalize.sql import row_writes

    writes = row_writes(
        "INSERT INTO wp_usermeta (user_id, meta_key, meta_value) VALUES (7, 'wp_capabilities', 'a:1:{admin}')"
    )
    assert ("wp_capabilities", "a:1:{admin}") in [(w.column, w.value) for w in writes]
    assert all(w.column != "x" for w in row_writes("INSERT INTO t (a, b) VALUES ('x', 'y')"))
