"""What the rows a statement writes do, judged by column and value (`limen.normalize.sql.row_writes`),
whichever door the statement comes through: the rules of `limen.rules.commands` and
`limen.rules.destinations` ask these, so `psql -c`, a database tool's `sql` argument and a library's
`execute` meet one verdict.

- an account made an administrator by data: a role, group, capability or permission column (or a settings
  row of that name, or a membership table's row) given a value that names an administrator, an owner or a
  superuser, as a literal or through the rows a sub-query picks (`role_id = (SELECT id FROM roles WHERE name =
  'Admin')`, WordPress's serialized `wp_capabilities`); `role = 'viewer'` and `name = 'admin'` in a table of
  roles are not;
- a credential of this system given a value written in the call (`INSERT INTO api_tokens (key, ...) VALUES
  ('a3f9...', ...)`): whoever wrote the call can sign in with it; a hash the database computes is not;
- where payments go rewritten (a payee's IBAN, a bank account and routing number, a payout wallet);
- a money or position limit set beyond reach or taken away (`max_notional_usd = 1e12`, `= NULL`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from limen.normalize.sql import RowWrite

# A column (or a settings row) that says what an account may do
_RIGHTS_COLUMN = re.compile(
    r"(?:^|_)(?:roles?|role_ids?|groups?|group_ids?|capabilit(?:y|ies)|permissions?|privileges?|authorit(?:y|ies)"
    r"|scopes?|access_level|user_type|account_type|user_level)$"
)
# A column that is itself the switch (`is_superuser`, `is_admin`, `admin`, `staff`)
_RIGHTS_SWITCH = re.compile(r"^(?:is_)?(?:super_?user|super_?admin|admin|administrator|staff|root|owner)$")
# A table whose rows hand an account a role, a group or a permission (`user_roles`, `ab_user_role`,
# `group_members`, Spring's `authorities`)
_MEMBERSHIP_TABLE = re.compile(
    r"(?:(?:user|account|member|principal)\w*?(?:role|group|permission|authorit|grant|capabilit)"
    r"|(?:role|group)_?(?:member|assignment|user|account|binding)|^authorities$)"
)
_ADMIN_VALUE = re.compile(
    r"(?i)(?<![a-z])(?:admin(?:istrator)?s?|super_?(?:user|admin)s?|owners?|root|sysadmins?|full_?access)(?![a-z])"
)
_ON = frozenset({"true", "1", "t", "y", "yes", "on"})


def _bare(table: str) -> str:
    return table.rsplit(".", 1)[-1]


def rights_given(writes: Iterable[RowWrite]) -> str:
    """The first write that makes an account an administrator by data, described; "" for none."""
    from limen.normalize.tools import words_of

    for write in writes:
        column = words_of(write.column)
        if _RIGHTS_SWITCH.match(column) and write.value.strip().lower() in _ON:
            return f"{write.column} set on in {write.table}"
        rights = _RIGHTS_COLUMN.search(column) or (
            _MEMBERSHIP_TABLE.search(words_of(_bare(write.table))) and column.endswith("_id")
        )
        if rights and _ADMIN_VALUE.search(write.value):
            return f"{write.column} in {write.table} given an administrator's rights"
    return ""


# A column of a table of this system's credentials that holds one (`key`, `token`, `api_key`,
# `client_secret`), and the tables that hold them
_CREDENTIAL_COLUMN = re.compile(
    r"^(?:\w+_)?(?:key|token|secret|api_?key|access_?key|secret_?key|client_?secret|password|passwd)$"
)
_CREDENTIAL_TABLE = re.compile(r"token|api_?key|credential|secret|session|auth|user|account|login|client")
# A value someone chose and can type again: long, one word, letters and digits mixed
_CHOSEN = re.compile(r"^(?=.*\d)(?=.*[A-Za-z])[\w.~+/=!#$%&*@^-]{16,256}$")


def credential_chosen(writes: Iterable[RowWrite]) -> str:
    """The first credential of this system a write gives a value written in the call; "" for none."""
    from limen.normalize.tools import words_of

    for write in writes:
        if (
            write.literal
            and _CREDENTIAL_COLUMN.match(words_of(write.column))
            and _CREDENTIAL_TABLE.search(words_of(_bare(write.table)))
            and _CHOSEN.match(write.value)
        ):
            return f"{write.table}.{write.column} is given a value written in the call, known to its writer"
    return ""


# Where a system sends money: a payee's or a counterparty's bank account, a payout address
_PAYEE_COLUMN = re.compile(
    r"(?:^|_)(?:iban|bic|swift_(?:code|bic)|sort_code|aba_(?:number|routing)|bank_?account\w*|beneficiary\w*"
    r"|payee\w*|payout_(?:account|address|method|iban|destination|wallet)\w*|wallet_?address"
    r"|(?:deposit|withdrawal|payout)_?address|settlement_\w*account\w*)$"
)
# An account number or a routing number is a bank's only in a table of payees or payments (a customer's
# `account_number` is the shop's own reference)
_BANK_DETAIL = re.compile(r"(?:^|_)(?:account_(?:number|no)|routing_(?:number|no)|swift)$")
_PAYMENT_TABLE = re.compile(r"bank|payee|vendor|supplier|beneficiar|payout|settlement|payment|remit|disburse")


def payee_written(writes: Iterable[RowWrite]) -> str:
    """The first write that says where payments go; "" for none."""
    from limen.normalize.tools import words_of

    for write in writes:
        value = write.value.strip()
        column = words_of(write.column)
        payment = _PAYEE_COLUMN.search(column) or (
            _BANK_DETAIL.search(column) and _PAYMENT_TABLE.search(words_of(_bare(write.table)))
        )
        if write.literal and value and value.lower() != "null" and payment:
            return f"payments go to the account {write.table}.{write.column} is given"
    return ""


_BEYOND_REACH = 1e9


def cap_lifted(writes: Iterable[RowWrite]) -> str:
    """The first money or position limit set beyond reach (a billion or more) or taken away (NULL)."""
    from limen.normalize.tools import CAP_KEY, words_of

    for write in writes:
        if not CAP_KEY.search(words_of(write.column)):
            continue
        value = write.value.strip().replace("_", "")
        if value.lower() == "null":
            return f"{write.table}.{write.column} taken away"
        try:
            if float(value) >= _BEYOND_REACH:
                return f"{write.table}.{write.column} set beyond reach ({value})"
        except ValueError:
            continue
    return ""
